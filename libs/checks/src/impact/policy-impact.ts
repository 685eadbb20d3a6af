import { Action, CategoryResult } from '@cds/events';
import { ACTIONS, ParsedPolicy } from '@cds/policy';
import { rulesActionOf } from './rule-actions';

/** One stored decision as the report sees it: what was decided, and what the candidate decides. */
export interface ReplayedDecision {
  decisionId: string;
  before: { action: Action; categories: CategoryResult[] };
  after: { action: Action; categories: CategoryResult[] };
}

export interface ActionChange {
  from: Action;
  to: Action;
  count: number;
  /** What drove the change, most frequent first: toward a more severe action, the
   * candidate's triggered categories whose rule gives the new action; toward a milder
   * one, the categories that gave the old action and no longer trigger. */
  categories: { category: string; count: number }[];
  /** A few decisions that change this way (the newest first). */
  sampleDecisionIds: string[];
}

export interface ImpactSummary {
  evaluated: number;
  unchanged: number;
  changed: number;
  changes: ActionChange[];
  actions: { before: Record<Action, number>; after: Record<Action, number> };
}

export const IMPACT_SAMPLES = 5;

const zero = (): Record<Action, number> => ({ allow: 0, warn: 0, flag: 0, block: 0 });
const severity = (a: Action) => ACTIONS.indexOf(a);

/**
 * Action changes between the decisions as made and as the candidate policy would make
 * them. Pure: the caller replays (no provider is called) and hands the pairs in.
 */
export function summarizeImpact(decisions: Iterable<ReplayedDecision>, before: ParsedPolicy | null, candidate: ParsedPolicy): ImpactSummary {
  const actions = { before: zero(), after: zero() };
  const changes = new Map<string, ActionChange & { byCategory: Map<string, number> }>();
  let evaluated = 0;
  let unchanged = 0;
  const candidateAction = rulesActionOf(candidate);
  const beforeAction = before ? rulesActionOf(before) : null;
  for (const d of decisions) {
    evaluated += 1;
    actions.before[d.before.action] += 1;
    actions.after[d.after.action] += 1;
    if (d.before.action === d.after.action) {
      unchanged += 1;
      continue;
    }
    const key = `${d.before.action}>${d.after.action}`;
    let change = changes.get(key);
    if (!change) {
      change = { from: d.before.action, to: d.after.action, count: 0, categories: [], sampleDecisionIds: [], byCategory: new Map() };
      changes.set(key, change);
    }
    change.count += 1;
    if (change.sampleDecisionIds.length < IMPACT_SAMPLES) change.sampleDecisionIds.push(d.decisionId);
    for (const category of drivers(d, candidateAction, beforeAction)) change.byCategory.set(category, (change.byCategory.get(category) ?? 0) + 1);
  }
  const list = [...changes.values()]
    .map(({ byCategory, ...c }) => ({
      ...c,
      categories: [...byCategory].map(([category, count]) => ({ category, count })).sort((a, b) => b.count - a.count || a.category.localeCompare(b.category)),
    }))
    .sort((a, b) => b.count - a.count || severity(b.to) - severity(a.to));
  return { evaluated, unchanged, changed: evaluated - unchanged, changes: list, actions };
}

function drivers(d: ReplayedDecision, candidateAction: (c: string) => Action | undefined, beforeAction: ((c: string) => Action | undefined) | null): string[] {
  if (severity(d.after.action) > severity(d.before.action)) {
    return d.after.categories.filter((c) => c.triggered && candidateAction(c.category) === d.after.action).map((c) => c.category);
  }
  const nowTriggered = new Set(d.after.categories.filter((c) => c.triggered).map((c) => c.category));
  return d.before.categories
    .filter((c) => c.triggered && !nowTriggered.has(c.category) && (!beforeAction || beforeAction(c.category) === d.before.action))
    .map((c) => c.category);
}
