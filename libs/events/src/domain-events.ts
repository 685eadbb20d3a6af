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

/** Which guardrail endpoint decided. */
export type GuardrailKind = 'skill_vetting' | 'action_authorization';
export type GuardrailActionName = 'allow' | 'warn' | 'flag' | 'block';

/** The four fields of the spec's Project guardrail policy, as stored on the log. */
export interface GuardrailPolicyData {
  sensitivePathPrefixes: string[];
  networkAllowlist: string[];
  blockShellPatterns: string[];
  requireApprovalScore: number;
}

export interface GuardrailDecidedV1 {
  decisionId: string;
  projectId: string | null;
  kind: GuardrailKind;
  action: GuardrailActionName;
  riskScore: number;
  reasons: string[];
  categories: string[];
  requiresApproval: boolean;
  /** The validated request the engine saw (what an audit or a replay needs). */
  request: Record<string, unknown>;
  /** The policy the engine applied and where each field came from (request, project, default). */
  policy: GuardrailPolicyData;
  policyOrigin: Record<string, string>;
  /** Identity of the caller: `key:<keyId>` or `session:<tokenId>`. */
  decidedBy: string;
  latency: number;
}

/** Body of `agent.guardrail.blocked` and `agent.guardrail.approval_required`: the
 * notifications the webhook dispatcher delivers. `decisionId` is the subject. */
export interface GuardrailAlertV1 {
  decisionId: string;
  projectId: string | null;
  kind: GuardrailKind;
  action: GuardrailActionName;
  riskScore: number;
  reasons: string[];
  categories: string[];
  requiresApproval: boolean;
}

/** A new version of a project's guardrail policy (PUT, or a rollback restoring an older one). */
export interface GuardrailPolicyVersionV1 {
  projectId: string;
  /** Opaque version identifier, unique per project. */
  version: string;
  policy: GuardrailPolicyData;
  updatedBy: string;
  /** Set on a rollback: the version whose policy this one restores. */
  restoredVersion: string | null;
}

export type DecisionCreated = EventEnvelope<'decision.created', DecisionCreatedV1>;
export type PolicySaved = EventEnvelope<'policy.saved', PolicySavedV1>;
export type KeyCreated = EventEnvelope<'key.created', KeyCreatedV1>;
export type KeyRevoked = EventEnvelope<'key.revoked', KeyRevokedV1>;

export type GuardrailDecided = EventEnvelope<'guardrail.decided', GuardrailDecidedV1>;
export type GuardrailBlocked = EventEnvelope<'agent.guardrail.blocked', GuardrailAlertV1>;
export type GuardrailApprovalRequired = EventEnvelope<'agent.guardrail.approval_required', GuardrailAlertV1>;
export type GuardrailPolicyUpdated = EventEnvelope<'guardrail.policy.updated', GuardrailPolicyVersionV1>;
export type GuardrailPolicyRolledBack = EventEnvelope<'guardrail.policy.rolled_back', GuardrailPolicyVersionV1>;

export type DomainEvent =
  | DecisionCreated | PolicySaved | KeyCreated | KeyRevoked
  | GuardrailDecided | GuardrailBlocked | GuardrailApprovalRequired | GuardrailPolicyUpdated | GuardrailPolicyRolledBack;
export type DomainEventType = DomainEvent['type'];

/** Which stream each event type is written to. */
export const TOPIC_OF: Record<DomainEventType, Topic> = {
  'decision.created': 'decisions',
  'policy.saved': 'policies',
  'key.created': 'keys',
  'key.revoked': 'keys',
  'guardrail.decided': 'guardrails',
  'agent.guardrail.blocked': 'guardrails',
  'agent.guardrail.approval_required': 'guardrails',
  'guardrail.policy.updated': 'guardrails',
  'guardrail.policy.rolled_back': 'guardrails',
};

/** The current schema version of each event type. */
export const CURRENT_VERSION: Record<DomainEventType, number> = {
  'decision.created': 1,
  'policy.saved': 1,
  'key.created': 1,
  'key.revoked': 1,
  'guardrail.decided': 1,
  'agent.guardrail.blocked': 1,
  'agent.guardrail.approval_required': 1,
  'guardrail.policy.updated': 1,
  'guardrail.policy.rolled_back': 1,
};
