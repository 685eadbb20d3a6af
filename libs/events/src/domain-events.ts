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

export interface DecisionCreatedV2 {
  decisionId: string;
  requestId: string | null;
  /** The text; for an image its URL or media reference; for a multimodal check its text ('' when none). */
  content: string;
  contentType: DecisionContentType;
  language: string;
  metadata: Record<string, unknown>;
  policyId: string;
  policyVersion: number;
  /** The providers that scored, comma-separated in name order (`local`). */
  provider: string;
  /** Raw signals per provider over all parts (max per signal). */
  signals: Record<string, ScoreMap>;
  /** The items scored, each with its own signals and outcome (one for text and image checks). */
  parts: DecisionPart[];
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
    steps: Array<Partial<Record<'actionType' | 'category' | 'fact' | 'command' | 'targetPath', string | string[]>>>;
    within?: number;
    action: 'flag' | 'block';
  }>;
}

/** Body of `agent.guardrail.blocked` and `agent.guardrail.approval_required`: the
 * notifications the webhook dispatcher delivers. `decisionId` is the subject.
 * A `guardrail.decided` event carries the same verdict and what it was decided on. */
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

export interface GuardrailDecidedV1 extends GuardrailAlertV1 {
  /** The validated request the engine saw (what an audit or a replay needs). */
  request: Record<string, unknown>;
  /** The policy the engine applied and where each field came from (request, project, default). */
  policy: GuardrailPolicyData;
  policyOrigin: Record<string, string>;
  /** Identity of the caller: `key:<keyId>` or `session:<tokenId>`. */
  decidedBy: string;
  latency: number;
  /** Skill vetting under the embedding text model: what the prompt-attack heads said of the
   * prompt (probabilities, the threshold, the model id); absent under the n-gram model. */
  promptModel?: { prompt_injection: number; jailbreak: number; threshold: number; model: string };
  /** Skill vetting: the skill and the hash of its content (prompt and permissions), which pins it. */
  skill?: GuardrailSkillRef;
  /** An action authorized under a session token: the session and what the action did. */
  session?: GuardrailSessionRef;
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

/** A registered webhook. The signing secret is stored only encrypted (AES-256-GCM,
 * `libs/webhooks/src/secret-box.ts`): neither the log nor the read models hold it in clear. */
export interface WebhookCreatedV1 {
  webhookId: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  secretCiphertext: string;
  createdBy: string;
}

/** Only the fields present changed. */
export interface WebhookUpdatedV1 {
  webhookId: string;
  changes: { url?: string; events?: WebhookEventType[]; description?: string | null; enabled?: boolean };
  updatedBy: string;
}

export interface WebhookDeletedV1 {
  webhookId: string;
  deletedBy: string;
}

/** The dispatcher turned a webhook off after it failed continuously for WEBHOOK_DISABLE_AFTER. */
export interface WebhookAutoDisabledV1 {
  webhookId: string;
  reason: string;
  failingSince: string;
  lastError: string | null;
}

/** Where a delivery goes: a registered webhook, or the `webhookUrl` of an async batch
 * that matches no registered webhook (signed with the batch's own secret). */
export type DeliveryTarget = { kind: 'webhook'; webhookId: string } | { kind: 'batch'; batchId: string; url: string };

/** What a delivery sends (the payload, fixed for every attempt) and to whom: the part of
 * it that its scheduling, its read-model document and the dispatcher's queue all carry. */
export interface DeliveryPlan {
  deliveryId: string;
  /** The webhook the delivery belongs to, or null for an unregistered batch webhookUrl. */
  webhookId: string | null;
  target: DeliveryTarget;
  eventId: string;
  eventType: string;
  payload: Record<string, unknown>;
}

/** A delivery was planned. */
export interface DeliveryScheduledV1 extends DeliveryPlan {
  /** When the first attempt is due (ISO 8601). */
  dueAt: string;
}

export type DeliveryAttemptStatus = 'succeeded' | 'failed';

/** One HTTP attempt of a delivery. */
export interface DeliveryAttemptedV1 {
  deliveryId: string;
  webhookId: string | null;
  eventId: string;
  eventType: string;
  /** 1 for the first attempt. */
  attempt: number;
  status: DeliveryAttemptStatus;
  url: string;
  responseCode: number | null;
  durationMs: number;
  error: string | null;
  /** When the next attempt is due; null once delivered or the schedule is exhausted. */
  nextAttemptAt: string | null;
  /** A `POST /v1/webhooks/{id}/test` delivery (single attempt, no retries). */
  test: boolean;
}

/** A pending delivery was given up without an attempt (its webhook was disabled or deleted). */
export interface DeliveryCancelledV1 {
  deliveryId: string;
  webhookId: string | null;
  eventId: string;
  eventType: string;
  reason: 'webhook_disabled' | 'webhook_deleted';
}

export interface BatchItemInput {
  id: string;
  content: string;
  contentType?: string;
  metadata?: Record<string, unknown>;
}

/** Outcome of one item: the decision, or why it could not be checked. */
export type BatchItemResult =
  { id: string; safe: boolean; action: Action; decisionId: string } | { id: string; error: { code: string; message: string; details: string } };

/** An async batch was accepted; checking it is a job on the `jobs` topic. */
export interface BatchAcceptedV1 {
  batchId: string;
  policyId: string;
  items: BatchItemInput[];
  webhookUrl: string;
  /** The registered webhook at webhookUrl whose secret signs the result, or null when
   * none matched and the batch carries its own secret (encrypted). */
  signingWebhookId: string | null;
  secretCiphertext: string | null;
  acceptedBy: string;
}

export interface BatchCompletedV1 {
  batchId: string;
  policyId: string;
  results: BatchItemResult[];
  succeeded: number;
  failed: number;
}

export interface BatchFailedV1 {
  batchId: string;
  policyId: string;
  error: { code: string; message: string; details: string };
}

/** How frames are sampled (the request's extractionStrategy, with defaults applied). */
export interface VideoExtraction {
  mode: 'interval' | 'scenes';
  frameInterval: number;
  maxFrames: number;
  stopOnBlock: boolean;
}

export type VideoSource = { kind: 'url'; url: string } | { kind: 'upload'; sha256: string; filename: string | null; bytes: number };

/** A video check was accepted; the worker samples and scores it (a job on `jobs`). */
export interface VideoAcceptedV1 {
  decisionId: string;
  policyId: string;
  source: VideoSource;
  /** The request's webhookUrl, or null: the outcome then goes to subscribed webhooks only. */
  webhookUrl: string | null;
  signingWebhookId: string | null;
  secretCiphertext: string | null;
  extraction: VideoExtraction;
  maxDurationSeconds: number;
  language: string;
  metadata: Record<string, unknown>;
  estimatedFrames: number;
  acceptedBy: string;
}

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

/** A checkpoint: every frame scored so far (cumulative), so a worker that dies resumes
 * after the last one recorded. */
export interface VideoProgressV1 {
  decisionId: string;
  mediaSha256: string;
  probe: VideoProbeFacts;
  framesTotal: number;
  framesProcessed: number;
  frames: VideoFrameScore[];
}

export interface VideoCompletedV1 {
  decisionId: string;
  policyId: string;
  action: Action;
  safe: boolean;
  flagged: boolean;
  framesProcessed: number;
  /** extractionStrategy.stopOnBlock stopped the scan at a blocked frame. */
  stoppedOnBlock: boolean;
}

export interface VideoFailedV1 {
  decisionId: string;
  policyId: string;
  error: { code: string; message: string; details: string };
}

export type DecisionCreated = EventEnvelope<'decision.created', DecisionCreatedV2>;
export type PolicySaved = EventEnvelope<'policy.saved', PolicySavedV1>;
export type KeyCreated = EventEnvelope<'key.created', KeyCreatedV1>;
export type KeyRevoked = EventEnvelope<'key.revoked', KeyRevokedV1>;

export type GuardrailDecided = EventEnvelope<'guardrail.decided', GuardrailDecidedV1>;
export type GuardrailBlocked = EventEnvelope<'agent.guardrail.blocked', GuardrailAlertV1>;
export type GuardrailApprovalRequired = EventEnvelope<'agent.guardrail.approval_required', GuardrailAlertV1>;
export type GuardrailPolicyUpdated = EventEnvelope<'guardrail.policy.updated', GuardrailPolicyVersionV1>;
export type GuardrailPolicyRolledBack = EventEnvelope<'guardrail.policy.rolled_back', GuardrailPolicyVersionV1>;

export type WebhookCreated = EventEnvelope<'webhook.created', WebhookCreatedV1>;
export type WebhookUpdated = EventEnvelope<'webhook.updated', WebhookUpdatedV1>;
export type WebhookDeleted = EventEnvelope<'webhook.deleted', WebhookDeletedV1>;
export type WebhookAutoDisabled = EventEnvelope<'webhook.auto_disabled', WebhookAutoDisabledV1>;
export type DeliveryScheduled = EventEnvelope<'webhook.delivery.scheduled', DeliveryScheduledV1>;
export type DeliveryAttempted = EventEnvelope<'webhook.delivery.attempted', DeliveryAttemptedV1>;
export type DeliveryCancelled = EventEnvelope<'webhook.delivery.cancelled', DeliveryCancelledV1>;
export type BatchAccepted = EventEnvelope<'batch.accepted', BatchAcceptedV1>;
export type BatchCompleted = EventEnvelope<'batch.completed', BatchCompletedV1>;
export type BatchFailed = EventEnvelope<'batch.failed', BatchFailedV1>;
export type VideoAccepted = EventEnvelope<'video.accepted', VideoAcceptedV1>;
export type VideoProgress = EventEnvelope<'video.progress', VideoProgressV1>;
export type VideoCompleted = EventEnvelope<'video.completed', VideoCompletedV1>;
export type VideoFailed = EventEnvelope<'video.failed', VideoFailedV1>;

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
