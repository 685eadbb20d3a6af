import { Action } from '@cds/events';
import { ParsedPolicy } from '@cds/policy';

/** The action a policy gives a category (the rule the Policy resource shows for it). */
export function rulesActionOf(policy: ParsedPolicy): (category: string) => Action | undefined {
  const byCategory = new Map(Object.entries(policy.categories).map(([c, rule]) => [c, rule.action]));
  return (category) => byCategory.get(category);
}
