import { GUARDRAIL_CATEGORIES, GUARDRAIL_CATEGORY_GROUPS, GuardrailAction, GuardrailCategory } from './guardrail-values';

/** One point of risk: it becomes exactly one reason and contributes its category. */
export interface RiskFinding {
  category: GuardrailCategory;
  points: number;
  reason: string;
  /** The gravest patterns block whatever the score (see GUARDRAILS.md, "Forced block"). */
  forceBlock?: boolean;
}

export interface GuardrailVerdict {
  action: GuardrailAction;
  /** Integer 0-100. */
  riskScore: number;
  reasons: string[];
  categories: GuardrailCategory[];
  requiresApproval: boolean;
}

export const MAX_RISK_SCORE = 100;

/** Lowest score of each action; the ranges are [0,25) allow, [25,50) warn, [50,80) flag, [80,100] block. */
export const ACTION_THRESHOLDS: Readonly<Record<GuardrailAction, number>> = {
  allow: 0,
  warn: 25,
  flag: 50,
  block: 80,
};

export function actionForScore(score: number): GuardrailAction {
  if (score >= ACTION_THRESHOLDS.block) return 'block';
  if (score >= ACTION_THRESHOLDS.flag) return 'flag';
  if (score >= ACTION_THRESHOLDS.warn) return 'warn';
  return 'allow';
}

/**
 * Sums the findings (each category capped at its documented maximum, then each category
 * group, then the total at 100),
 * keeps the first occurrence of each reason and category, and applies forced blocks.
 */
export function buildVerdict(findings: readonly RiskFinding[], requireApprovalScore: number): GuardrailVerdict {
  const perCategory = new Map<GuardrailCategory, number>();
  const reasons: string[] = [];
  const seenReasons = new Set<string>();
  let forced = false;
  for (const f of findings) {
    if (seenReasons.has(f.reason)) continue;
    seenReasons.add(f.reason);
    reasons.push(f.reason);
    perCategory.set(f.category, (perCategory.get(f.category) ?? 0) + f.points);
    forced ||= f.forceBlock === true;
  }
  const capped = new Map<GuardrailCategory, number>();
  for (const [category, points] of perCategory) capped.set(category, Math.min(points, GUARDRAIL_CATEGORIES[category].cap));
  let total = 0;
  const grouped = new Set<GuardrailCategory>();
  for (const group of Object.values(GUARDRAIL_CATEGORY_GROUPS)) {
    let sum = 0;
    for (const c of group.categories) {
      sum += capped.get(c) ?? 0;
      grouped.add(c);
    }
    total += Math.min(sum, group.cap);
  }
  for (const [category, points] of capped) if (!grouped.has(category)) total += points;
  const riskScore = forced ? MAX_RISK_SCORE : Math.min(MAX_RISK_SCORE, Math.round(total));
  return {
    action: forced ? 'block' : actionForScore(riskScore),
    riskScore,
    reasons,
    categories: [...perCategory.keys()],
    requiresApproval: riskScore >= requireApprovalScore,
  };
}
