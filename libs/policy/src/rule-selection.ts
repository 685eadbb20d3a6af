import { Rule } from './policy.types';

/** Rules grouped by category, categories in order of first appearance. */
export function rulesByCategory(rules: readonly Rule[]): Map<string, Rule[]> {
  const groups = new Map<string, Rule[]>();
  for (const rule of rules) {
    const group = groups.get(rule.category);
    if (group) group.push(rule);
    else groups.set(rule.category, [rule]);
  }
  return groups;
}

/**
 * The rule of one category that applies to a decision made by `provider`: the rule
 * naming that provider, else the rule naming none, else the first rule listed. The
 * last step keeps a category from being skipped silently (fail closed) when a
 * policy written for one provider runs on another.
 */
export function selectRule(candidates: readonly Rule[], provider: string | undefined): Rule {
  return (
    (provider !== undefined ? candidates.find((r) => r.provider === provider) : undefined) ?? candidates.find((r) => r.provider === undefined) ?? candidates[0]
  );
}
