export { ACTIONS, NAME_PATTERN, POLICY_LIMITS } from './policy.types';
export type { Rule, CategoryPolicy, ParsedPolicy, PolicyEvaluation, SignalFolding, DryRunScoresInput } from './policy.types';
export { parsePolicyYaml } from './policy.yaml-parser';
export { evaluate } from './policy.evaluator';
export { DEFAULT_SIGNAL_FOLDING, foldSignals, PROMPT_ATTACK_CATEGORIES, scoresForDryRun } from './signal-folding';
export { validateScores } from './score-map.validator';
export { POLICY_ID_PATTERN, POLICY_ID_MESSAGE } from './policy-id';
export { getOwn, setOwn } from './own-record';
export { rulesByCategory, selectRule } from './rule-selection';
