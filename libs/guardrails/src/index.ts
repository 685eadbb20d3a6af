/** Public surface of the guardrail engine: pure functions over plain data, no Nest, no I/O. */
export { vetSkill, PROMPT_MODEL_POINTS } from './skill-vetting';
export type { SkillVettingInput, PromptModelScore } from './skill-vetting';
export { skillContentHash } from './skill-pinning';
export type { PinnedSkill } from './skill-pinning';
export { authorizeAction } from './action-authorization';
export type { ActionAuthorizeInput } from './action-authorization';
export { authorizeSessionAction } from './session-authorization';
export type { SessionDecision } from './session-authorization';
export type { SessionAction } from './session/session-rules';
export type { SessionFact } from './session/session-facts';
export { ACTION_THRESHOLDS, MAX_RISK_SCORE, actionForScore } from './guardrail-verdict';
export type { GuardrailVerdict } from './guardrail-verdict';

export { clonePolicy, DEFAULT_GUARDRAIL_POLICY, resolvePolicy, resolvePolicyWithOrigin } from './guardrail-policy';
export type {
  ProjectGuardrailPolicy,
  GuardrailPolicyOverride,
  PolicyLevel,
  ResolvedGuardrailPolicy,
  SystemZonesPolicy,
  SessionRule,
  SessionRuleStep,
} from './guardrail-policy';

export { validateGuardrailPolicy, validateGuardrailPolicyOverride } from './guardrail-policy.validator';
export { validateSkillVettingInput, validateActionAuthorizeInput } from './guardrail-input.validator';
export { GUARDRAIL_ERROR_CODES, LIMITS as GUARDRAIL_INPUT_LIMITS } from './guardrail-validation.helpers';

export {
  GUARDRAIL_ACTIONS,
  GUARDRAIL_CATEGORIES,
  GUARDRAIL_CATEGORY_GROUPS,
  SKILL_SOURCES,
  MAINTAINER_REPUTATIONS,
  PERMISSIONS,
  HIGH_PRIVILEGE_PERMISSIONS,
  ACTION_TYPES,
  SENSITIVE_ACTION_TYPES,
  NETWORK_ACTION_TYPES,
} from './guardrail-values';
export type { GuardrailAction, GuardrailCategory, SkillSource, MaintainerReputation, Permission, ActionType } from './guardrail-values';
export { PLACEHOLDER_HOME, PLACEHOLDER_WORKSPACE } from './paths/path-normalizer';
export { promptAttackRuleScores } from './rules/prompt-injection';
