import { ParsedPolicy, rulesByCategory } from '@cds/policy';

/** The fallback of a policy that names none. */
export const DEFAULT_FALLBACK: readonly string[] = ['local'];

/** What routing needs to know about the providers of this process. */
export interface RoutingProviders {
  /** The provider a modality is scored by when the policy names none (DEFAULT_PROVIDER). */
  defaultFor: string;
  /** Is `name` configured here and able to score this modality? */
  canScore(name: string): boolean;
}

/**
 * Who scores each category of a policy, in the order to try them: the provider of the
 * category's first rule that names one, else the policy's `provider`, else the
 * default; then the policy's `fallback` (default `[local]`, `[]` for none). Providers
 * that cannot score this modality (or are not configured) are left out; when that leaves
 * nothing and the policy gave no fallback of its own, the modality's default scores it.
 * An empty chain means no provider can score the category: the check answers 503.
 */
export function providerChains(policy: ParsedPolicy | undefined, providers: RoutingProviders): Map<string, string[]> {
  const chains = new Map<string, string[]>();
  if (!policy) {
    // Video frames: decoded pixels only, which an external default may refuse.
    chains.set(
      '*',
      unique([providers.defaultFor, ...DEFAULT_FALLBACK]).filter((p) => providers.canScore(p)),
    );
    return chains;
  }
  const fallback = policy.fallback ?? DEFAULT_FALLBACK;
  for (const [category, rules] of rulesByCategory(policy.rules)) {
    const primary = rules.find((r) => r.provider !== undefined)?.provider ?? policy.provider ?? providers.defaultFor;
    const chain = unique([primary, ...fallback]).filter((p) => providers.canScore(p));
    const primaryUnfit = !providers.canScore(primary);
    // A policy that names an image-only provider still scores its text (and the other way
    // round): the modality's default stands in, unless the policy forbade any fallback.
    if (chain.length === 0 && primaryUnfit && policy.fallback === undefined) chain.push(providers.defaultFor);
    chains.set(category, chain);
  }
  return chains;
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}
