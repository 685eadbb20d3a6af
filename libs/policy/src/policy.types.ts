import { Action, CategoryResult } from '@cds/events';

/** Actions from least to most severe: the index is the severity. */
export const ACTIONS: readonly Action[] = Object.freeze(['allow', 'warn', 'flag', 'block'] as const);

/** Category, signal and provider names: lowercase, start with a letter, at most 64 characters. */
export const NAME_PATTERN = /^[a-z][a-z0-9_\-]{0,63}$/;

export const POLICY_LIMITS = Object.freeze({
  /** Size of the YAML text, in UTF-8 bytes. */
  maxBytes: 64 * 1024,
  /** Rules (shape b) or categories (shape a) in one policy. */
  maxRules: 256,
  /** Collection nesting the YAML reader accepts; a valid policy needs 3. */
  maxDepth: 8,
  maxNameLength: 200,
  maxDescriptionLength: 2000,
  maxVersionLength: 64,
  /** Entries in a score or signal map given by a caller (dry-run). */
  maxScoreEntries: 256,
  /** Providers in a policy's fallback list. */
  maxFallbacks: 8,
});

/** One normalized rule. `provider` is absent when the rule applies to any provider. */
export interface Rule {
  category: string;
  threshold: number;
  action: Action;
  provider?: string;
}

export interface CategoryPolicy {
  threshold: number;
  action: Action;
  provider?: string;
}

export interface ParsedPolicy {
  name: string;
  version?: string;
  description?: string;
  /** Who scores the categories whose rule names no provider (else DEFAULT_PROVIDER). */
  provider?: string;
  /** Providers tried in order when a category's provider cannot answer; absent means
   * the deployment's default (`[local]`), `[]` means none. */
  fallback?: string[];
  /** The spec's Policy.categories: per category, the rule that applies when the provider is unknown. */
  categories: Record<string, CategoryPolicy>;
  /** Every rule, in document order. Evaluation reads these. */
  rules: Rule[];
}

export interface PolicyEvaluation {
  /** One per policy category, in the policy's order. */
  categories: CategoryResult[];
  flagged: boolean;
  safe: boolean;
  action: Action;
}

/** Category name -> names of the provider signals folded into it (by max). */
export type SignalFolding = Readonly<Record<string, readonly string[]>>;

export interface DryRunScoresInput {
  /** Category scores, used as they are. */
  mockScores?: unknown;
  /** Provider signals; when present they are folded and mockScores is not used. */
  mockSignals?: unknown;
}
