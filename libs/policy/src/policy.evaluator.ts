import { Action, CategoryResult, ScoreMap } from '@cds/events';
import { getOwn } from './own-record';
import { ACTIONS, ParsedPolicy, PolicyEvaluation } from './policy.types';
import { rulesByCategory, selectRule } from './rule-selection';

const SCORE_DECIMALS = 1e4;

/**
 * Evaluates a policy over category scores. A category triggers when its score is
 * >= its threshold (compared unrounded); `flagged` = any triggered; `safe` = not
 * flagged; `action` = the most severe action among triggered categories
 * (block > flag > warn > allow), `allow` when none triggered. A policy category
 * without a score scores 0. Scores outside [0, 1] are clamped; a score that is not
 * a number counts as missing (validate untrusted maps with validateScores first).
 * `provider` (one for all, or per category) picks among a category's rules.
 */
export function evaluate(policy: ParsedPolicy, scores: ScoreMap, provider?: string | ((category: string) => string | undefined)): PolicyEvaluation {
  const categories: CategoryResult[] = [];
  let flagged = false;
  let action: Action = 'allow';
  for (const [category, candidates] of rulesByCategory(policy.rules)) {
    const rule = selectRule(candidates, typeof provider === 'function' ? provider(category) : provider);
    const score = scoreOf(scores, category);
    const triggered = score >= rule.threshold;
    if (triggered) {
      flagged = true;
      if (ACTIONS.indexOf(rule.action) > ACTIONS.indexOf(action)) action = rule.action;
    }
    categories.push({ category, score: displayScore(score, rule.threshold, triggered), threshold: rule.threshold, triggered });
  }
  return { categories, flagged, safe: !flagged, action };
}

function scoreOf(scores: ScoreMap, category: string): number {
  const v = getOwn(scores, category);
  if (typeof v !== 'number' || Number.isNaN(v)) return 0;
  return Math.min(1, Math.max(0, v));
}

/** Four decimals, unless rounding would put the shown score on the other side of
 * the threshold than the decision: then the exact score is shown. */
function displayScore(score: number, threshold: number, triggered: boolean): number {
  const rounded = Math.round(score * SCORE_DECIMALS) / SCORE_DECIMALS;
  return rounded >= threshold === triggered ? rounded : score;
}
