import { EventEnvelope, Topic } from './envelope';
import type * as Body from './event-bodies';

/** Scores and signals are plain maps of name -> number in [0, 1]. */
export type ScoreMap = Record<string, number>;

export interface CategoryResult {
  category: string;
  score: number;
  threshold: number;
  triggered: boolean;
}

export type Action = 'allow' | 'warn' | 'flag' | 'block';

/** What a check scored: text (the default), an image, or several items in one request. */
export type DecisionContentType = 'text' | 'image' | 'multimodal' | 'video';

/** Facts about an image a decision scored (the bytes themselves are in the blob store). */
export interface DecisionMedia {
  sha256: string;
  format: string;
  width: number;
  height: number;
  bytes: number;
  /** Frames in the file (1 unless animated) and frames scored. */
  frameCount: number;
  framesScored: number;
}

/** How the text of an image part was read: the OCR engine and the Tesseract packs. */
export interface DecisionOcr {
  /** `tesseract` (the binary) or `tesseract.js` (WebAssembly, when the binary is missing). */
  engine: string;
  /** The packs it was read with: `deu+eng`, or `eng` alone when the language has no pack here. */
  languages: string;
  /** Packs the check's language needed that this engine lacks: its text was read with English. */
  missing?: string[];
}

/** One scored item of a decision: the text, an image, or one item of a multimodal check. */
export interface DecisionPart {
  /** `image` is also a frame of a video decision (see `frame`); `video` the whole of a
   * video item of a multimodal check (its frames merged, worst wins). */
  contentType: 'text' | 'image' | 'video';
  /** The image's URL, or `media:sha256:<hex>` for an inline image; null for text. */
  contentRef: string | null;
  /** Raw signals per provider: replay folds them again and calls nobody. */
  signals: Record<string, ScoreMap>;
  /** Text read in an image by OCR; null for text, or when OCR is off. */
  ocrText: string | null;
  /** How ocrText was read; absent for text, when OCR is off, and on decisions made before it was recorded. */
  ocr?: DecisionOcr;
  media: DecisionMedia | null;
  /** A sampled frame of a video decision. */
  frame?: DecisionFrame;
  categories: CategoryResult[];
  action: Action;
  safe: boolean;
  flagged: boolean;
  /** Who scored each policy category of this part (the policy's routing, after any
   * fallback); absent on decisions made before routing, where every provider counts. */
  routes?: Record<string, string[]>;
  /** Every provider call made for this part, failed ones included. */
  attempts?: ProviderAttempt[];
}

/** One call of a provider for one item. */
export interface ProviderAttempt {
  provider: string;
  ok: boolean;
  /** Milliseconds the call took (0 when answered from the cache). */
  ms: number;
  /** Why it failed (a ProviderCallError reason such as timeout, server_error, circuit_open). */
  reason?: string;
  /** Answered from the provider cache (PROVIDER_CACHE_TTL): not paid again. */
  cached?: boolean;
  /** The model that answered (the local text model `multilingual-e5-small-q4+heads:<sha>`,
   * or `ngram:<sha>` when the n-gram model answered alone: LOCAL_TEXT_MODEL=ngram, or the
   * cascade cleared the text; the image model; an external provider's model); absent on
   * decisions made before it was recorded. */
  model?: string;
}

export interface DecisionFrame {
  frameNumber: number;
  /** Position in the video, seconds. */
  timestamp: number;
  /** A full-resolution JPEG of a flagged frame in the blob store (evidence), else null. */
  evidenceSha256: string | null;
}

/** Version 1: text only, one provider's signals. Lifted to v2 when read. */
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
  signals: ScoreMap;
  categories: CategoryResult[];
  action: Action;
  safe: boolean;
  flagged: boolean;
  latency: number;
  cost: number;
}

/** Which guardrail endpoint decided. */
export type GuardrailKind = 'skill_vetting' | 'action_authorization';
export type GuardrailActionName = 'allow' | 'warn' | 'flag' | 'block';

/** The four fields of the spec's Project guardrail policy, as stored on the log, and our optional ones. */
export interface GuardrailPolicyData {
  sensitivePathPrefixes: string[];
  networkAllowlist: string[];
  blockShellPatterns: string[];
  requireApprovalScore: number;
  /** Absent on versions that do not set it (and on every version written before it existed). */
  systemZones?: { add: string[]; exempt: string[] };
  /** Absent on versions that do not set it; the grammar is libs/guardrails' SessionRule. */
  sessionRules?: Array<{
    name: string;
    /** As the engine's validator leaves them: the lists as lists, the globs as strings. */
    steps: Array<Partial<Record<'actionType' | 'category' | 'fact', string[]> & Record<'command' | 'targetPath', string>>>;
    within?: number;
    action: 'flag' | 'block';
  }>;
}

export interface GuardrailSessionRef {
  /** The session token's id (decidedBy is `session:<sessionId>`). */
  sessionId: string;
  /** What the action did, for the session's sequence rules (libs/guardrails, SessionFact). */
  facts: Array<{ kind: string; value: string }>;
}

export interface GuardrailSkillRef {
  skillId: string;
  contentHash: string;
}

/** The event types a webhook can subscribe to (the spec's Events table). */
export const WEBHOOK_EVENT_TYPES = [
  'decision.created',
  'decision.flagged',
  'decision.blocked',
  'agent.guardrail.blocked',
  'agent.guardrail.approval_required',
  'moderation.completed',
  'moderation.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Where a delivery goes: a registered webhook, or the `webhookUrl` of an async batch
 * that matches no registered webhook (signed with the batch's own secret). */
export type DeliveryTarget = { kind: 'webhook'; webhookId: string } | { kind: 'batch'; batchId: string; url: string };

export type DeliveryAttemptStatus = 'succeeded' | 'failed';

export interface BatchItemInput {
  id: string;
  content: string;
  contentType?: string;
  metadata?: Record<string, unknown>;
}

/** Outcome of one item: the decision, or why it could not be checked. */
export type BatchItemResult =
  { id: string; safe: boolean; action: Action; decisionId: string } | { id: string; error: { code: string; message: string; details: string } };

/** How frames are sampled (the request's extractionStrategy, with defaults applied). */
export interface VideoExtraction {
  mode: 'interval' | 'scenes';
  frameInterval: number;
  maxFrames: number;
  stopOnBlock: boolean;
}

export type VideoSource = { kind: 'url'; url: string } | { kind: 'upload'; sha256: string; filename: string | null; bytes: number };

/** One scored frame, before any policy (replay and resume read these). */
export interface VideoFrameScore {
  index: number;
  timestamp: number;
  scene: boolean;
  signals: Record<string, ScoreMap>;
  ocrText: string | null;
}

export interface VideoProbeFacts {
  container: string;
  codec: string;
  width: number;
  height: number;
  durationSeconds: number;
  fps: number;
}

export type DecisionCreated = EventEnvelope<'decision.created', Body.DecisionCreatedV2>;
export type PolicySaved = EventEnvelope<'policy.saved', Body.PolicySavedV1>;
export type KeyCreated = EventEnvelope<'key.created', Body.KeyCreatedV1>;
export type KeyRevoked = EventEnvelope<'key.revoked', Body.KeyRevokedV1>;

export type GuardrailDecided = EventEnvelope<'guardrail.decided', Body.GuardrailDecidedV1>;
export type GuardrailBlocked = EventEnvelope<'agent.guardrail.blocked', Body.GuardrailAlertV1>;
export type GuardrailApprovalRequired = EventEnvelope<'agent.guardrail.approval_required', Body.GuardrailAlertV1>;
export type GuardrailPolicyUpdated = EventEnvelope<'guardrail.policy.updated', Body.GuardrailPolicyVersionV1>;
export type GuardrailPolicyRolledBack = EventEnvelope<'guardrail.policy.rolled_back', Body.GuardrailPolicyVersionV1>;

export type WebhookCreated = EventEnvelope<'webhook.created', Body.WebhookCreatedV1>;
export type WebhookUpdated = EventEnvelope<'webhook.updated', Body.WebhookUpdatedV1>;
export type WebhookDeleted = EventEnvelope<'webhook.deleted', Body.WebhookDeletedV1>;
export type WebhookAutoDisabled = EventEnvelope<'webhook.auto_disabled', Body.WebhookAutoDisabledV1>;
export type DeliveryScheduled = EventEnvelope<'webhook.delivery.scheduled', Body.DeliveryScheduledV1>;
export type DeliveryAttempted = EventEnvelope<'webhook.delivery.attempted', Body.DeliveryAttemptedV1>;
export type DeliveryCancelled = EventEnvelope<'webhook.delivery.cancelled', Body.DeliveryCancelledV1>;
export type BatchAccepted = EventEnvelope<'batch.accepted', Body.BatchAcceptedV1>;
export type BatchCompleted = EventEnvelope<'batch.completed', Body.BatchCompletedV1>;
export type BatchFailed = EventEnvelope<'batch.failed', Body.BatchFailedV1>;
export type VideoAccepted = EventEnvelope<'video.accepted', Body.VideoAcceptedV1>;
export type VideoProgress = EventEnvelope<'video.progress', Body.VideoProgressV1>;
export type VideoCompleted = EventEnvelope<'video.completed', Body.VideoCompletedV1>;
export type VideoFailed = EventEnvelope<'video.failed', Body.VideoFailedV1>;

export type DomainEvent =
  | DecisionCreated
  | PolicySaved
  | KeyCreated
  | KeyRevoked
  | GuardrailDecided
  | GuardrailBlocked
  | GuardrailApprovalRequired
  | GuardrailPolicyUpdated
  | GuardrailPolicyRolledBack
  | WebhookCreated
  | WebhookUpdated
  | WebhookDeleted
  | WebhookAutoDisabled
  | DeliveryScheduled
  | DeliveryAttempted
  | DeliveryCancelled
  | BatchAccepted
  | BatchCompleted
  | BatchFailed
  | VideoAccepted
  | VideoProgress
  | VideoCompleted
  | VideoFailed;
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
  'webhook.created': 'webhooks',
  'webhook.updated': 'webhooks',
  'webhook.deleted': 'webhooks',
  'webhook.auto_disabled': 'webhooks',
  'webhook.delivery.scheduled': 'deliveries',
  'webhook.delivery.attempted': 'deliveries',
  'webhook.delivery.cancelled': 'deliveries',
  'batch.accepted': 'jobs',
  'batch.completed': 'jobs',
  'batch.failed': 'jobs',
  'video.accepted': 'jobs',
  'video.progress': 'jobs',
  'video.completed': 'jobs',
  'video.failed': 'jobs',
};

/** The current schema version of each event type. */
export const CURRENT_VERSION: Record<DomainEventType, number> = {
  'decision.created': 2,
  'policy.saved': 1,
  'key.created': 1,
  'key.revoked': 1,
  'guardrail.decided': 1,
  'agent.guardrail.blocked': 1,
  'agent.guardrail.approval_required': 1,
  'guardrail.policy.updated': 1,
  'guardrail.policy.rolled_back': 1,
  'webhook.created': 1,
  'webhook.updated': 1,
  'webhook.deleted': 1,
  'webhook.auto_disabled': 1,
  'webhook.delivery.scheduled': 1,
  'webhook.delivery.attempted': 1,
  'webhook.delivery.cancelled': 1,
  'batch.accepted': 1,
  'batch.completed': 1,
  'batch.failed': 1,
  'video.accepted': 1,
  'video.progress': 1,
  'video.completed': 1,
  'video.failed': 1,
};
