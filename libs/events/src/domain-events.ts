import { EventEnvelope, Topic } from './envelope';

/** Scores and signals are plain maps of name -> number in [0, 1]. */
export type ScoreMap = Record<string, number>;

export interface CategoryResult {
  category: string;
  score: number;
  threshold: number;
  triggered: boolean;
}

export type Action = 'allow' | 'warn' | 'flag' | 'block';

export interface DecisionCreatedV1 {
  decisionId: string;
  requestId: string | null;
  content: string;
  contentType: 'text';
  language: string;
  metadata: Record<string, unknown>;
  policyId: string;
  policyVersion: number;
  provider: string;
  /** Raw provider signals: what replay re-evaluates without calling a provider. */
  signals: ScoreMap;
  categories: CategoryResult[];
  action: Action;
  safe: boolean;
  flagged: boolean;
  latency: number;
  cost: number;
}

export interface PolicySavedV1 {
  policyId: string;
  name: string;
  version: number;
  yamlContent: string;
  /** Normalized categories (spec's Policy.categories): name -> {threshold, action, provider?}. */
  categories: Record<string, { threshold: number; action: Action; provider?: string }>;
  savedBy: string;
}

export interface KeyCreatedV1 {
  keyId: string;
  name: string;
  scopes: string[];
  /** sha256 of the secret; the secret itself is never logged. */
  hash: string;
  prefix: string;
  createdBy: string;
}

export interface KeyRevokedV1 {
  keyId: string;
  revokedBy: string;
}

export type DecisionCreated = EventEnvelope<'decision.created', DecisionCreatedV1>;
export type PolicySaved = EventEnvelope<'policy.saved', PolicySavedV1>;
export type KeyCreated = EventEnvelope<'key.created', KeyCreatedV1>;
export type KeyRevoked = EventEnvelope<'key.revoked', KeyRevokedV1>;

export type DomainEvent = DecisionCreated | PolicySaved | KeyCreated | KeyRevoked;
export type DomainEventType = DomainEvent['type'];

/** Which stream each event type is written to. */
export const TOPIC_OF: Record<DomainEventType, Topic> = {
  'decision.created': 'decisions',
  'policy.saved': 'policies',
  'key.created': 'keys',
  'key.revoked': 'keys',
};

/** The current schema version of each event type. */
export const CURRENT_VERSION: Record<DomainEventType, number> = {
  'decision.created': 1,
  'policy.saved': 1,
  'key.created': 1,
  'key.revoked': 1,
};
