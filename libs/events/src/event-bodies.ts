import type {
  Action,
  BatchItemInput,
  BatchItemResult,
  CategoryResult,
  DecisionContentType,
  DecisionPart,
  DeliveryTarget,
  GuardrailActionName,
  GuardrailKind,
  GuardrailPolicyData,
  GuardrailSessionRef,
  GuardrailSkillRef,
  ScoreMap,
  VideoExtraction,
  VideoFrameScore,
  VideoProbeFacts,
  VideoSource,
  WebhookEventType,
} from './domain-events';
import { WEBHOOK_EVENT_TYPES } from './domain-events';
import { bool, DataOf, isObject, list, num, object, oneOf, optional, orNull, shallow, str, strArr, unchecked } from './event-fields';

/**
 * The body of each event type at its current version: its fields and how each is checked
 * when an event is written and read (event-schema.ts); the body types (DecisionCreatedV2,
 * …, exported by domain-events.ts) are what these declare.
 */
const strOrNull = orNull(str);
const numOrNull = orNull(num);
const action = shallow<Action>(str);
const obj = (v: unknown) => isObject(v);
const signalsByProvider = shallow<Record<string, ScoreMap>>((v) => obj(v) && Object.values(v as object).every(obj));
const itemError = shallow<{ code: string; message: string; details: string }>((v) => obj(v) && str(v.code) && str(v.message) && str(v.details));

const decisionParts = shallow<DecisionPart[]>(
  (v) =>
    Array.isArray(v) &&
    v.length > 0 &&
    v.every(
      (p) =>
        obj(p) &&
        ['text', 'image', 'video'].includes(p.contentType as string) &&
        strOrNull(p.contentRef) &&
        (p.frame === undefined || (obj(p.frame) && num(p.frame.frameNumber) && num(p.frame.timestamp) && strOrNull(p.frame.evidenceSha256))) &&
        signalsByProvider(p.signals) &&
        strOrNull(p.ocrText) &&
        (p.media === null || obj(p.media)) &&
        Array.isArray(p.categories) &&
        str(p.action) &&
        bool(p.safe) &&
        bool(p.flagged),
    ),
);

export const DECISION_CREATED_V2 = {
  decisionId: str,
  requestId: strOrNull,
  /** The text; for an image its URL or media reference; for a multimodal check its text ('' when none). */
  content: str,
  contentType: shallow<DecisionContentType>(str),
  language: str,
  metadata: object(),
  policyId: str,
  policyVersion: num,
  /** The providers that scored, comma-separated in name order (`local`). */
  provider: str,
  /** Raw signals per provider over all parts (max per signal). */
  signals: signalsByProvider,
  /** The items scored, each with its own signals and outcome (one for text and image checks). */
  parts: decisionParts,
  categories: list<CategoryResult>(),
  action,
  safe: bool,
  flagged: bool,
  latency: num,
  cost: num,
};

export const POLICY_SAVED_V1 = {
  policyId: str,
  name: str,
  version: num,
  yamlContent: str,
  /** Normalized categories (spec's Policy.categories): name -> {threshold, action, provider?}. */
  categories: object<Record<string, { threshold: number; action: Action; provider?: string }>>(),
  savedBy: str,
};

export const KEY_CREATED_V1 = {
  keyId: str,
  name: str,
  scopes: strArr,
  /** sha256 of the secret; the secret itself is never logged. */
  hash: str,
  prefix: str,
  createdBy: str,
};

export const KEY_REVOKED_V1 = { keyId: str, revokedBy: str };

/** Body of `agent.guardrail.blocked` and `agent.guardrail.approval_required`: the
 * notifications the webhook dispatcher delivers. `decisionId` is the subject. */
export const GUARDRAIL_ALERT_V1 = {
  decisionId: str,
  projectId: strOrNull,
  kind: shallow<GuardrailKind>(str),
  action: shallow<GuardrailActionName>(str),
  riskScore: num,
  reasons: strArr,
  categories: strArr,
  requiresApproval: bool,
};

export const GUARDRAIL_DECIDED_V1 = {
  ...GUARDRAIL_ALERT_V1,
  /** The validated request the engine saw (what an audit or a replay needs). */
  request: object(),
  /** The policy the engine applied and where each field came from (request, project, default). */
  policy: object<GuardrailPolicyData>(),
  policyOrigin: object<Record<string, string>>(),
  /** Identity of the caller: `key:<keyId>` or `session:<tokenId>`. */
  decidedBy: str,
  latency: num,
  /** Skill vetting: the skill and the hash of its content (prompt and permissions), which pins it. */
  skill: optional(shallow<GuardrailSkillRef>((v) => obj(v) && str(v.skillId) && str(v.contentHash))),
  /** An action authorized under a session token: the session and what the action did. */
  session: optional(
    shallow<GuardrailSessionRef>((v) => obj(v) && str(v.sessionId) && Array.isArray(v.facts) && v.facts.every((f) => obj(f) && str(f.kind) && str(f.value))),
  ),
  /** Skill vetting under the embedding text model: what the prompt-attack heads said of the
   * prompt (probabilities, the threshold, the model id); absent under the n-gram model. */
  promptModel: optional(unchecked<{ prompt_injection: number; jailbreak: number; threshold: number; model: string }>()),
};

/** A new version of a project's guardrail policy (PUT, or a rollback restoring an older one). */
export const GUARDRAIL_POLICY_VERSION_V1 = {
  projectId: str,
  /** Opaque version identifier, unique per project. */
  version: str,
  policy: object<GuardrailPolicyData>(),
  updatedBy: str,
  /** Set on a rollback: the version whose policy this one restores. */
  restoredVersion: strOrNull,
};

const webhookEvents = shallow<WebhookEventType[]>((v) => strArr(v) && v.every((t) => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(t)));

/** A registered webhook. The signing secret is stored only encrypted (AES-256-GCM,
 * `libs/webhooks/src/secret-box.ts`): neither the log nor the read models hold it in clear. */
export const WEBHOOK_CREATED_V1 = {
  webhookId: str,
  url: str,
  events: webhookEvents,
  description: strOrNull,
  enabled: bool,
  secretCiphertext: str,
  createdBy: str,
};

/** Only the fields present changed. */
export const WEBHOOK_UPDATED_V1 = {
  webhookId: str,
  changes: object<{ url?: string; events?: WebhookEventType[]; description?: string | null; enabled?: boolean }>(),
  updatedBy: str,
};

export const WEBHOOK_DELETED_V1 = { webhookId: str, deletedBy: str };

/** The dispatcher turned a webhook off after it failed continuously for WEBHOOK_DISABLE_AFTER. */
export const WEBHOOK_AUTO_DISABLED_V1 = { webhookId: str, reason: str, failingSince: str, lastError: strOrNull };

const DELIVERY_REF = {
  deliveryId: str,
  /** The webhook the delivery belongs to, or null for an unregistered batch webhookUrl. */
  webhookId: strOrNull,
  eventId: str,
  eventType: str,
};

const target = shallow<DeliveryTarget>((v) => obj(v) && ((v.kind === 'webhook' && str(v.webhookId)) || (v.kind === 'batch' && str(v.batchId) && str(v.url))));

/** What a delivery sends (the payload, fixed for every attempt) and to whom: what its
 * scheduling, its read-model document and the dispatcher's queue all carry. */
const DELIVERY_PLAN = {
  ...DELIVERY_REF,
  target,
  payload: object(),
};

/** A delivery was planned. */
export const DELIVERY_SCHEDULED_V1 = {
  ...DELIVERY_PLAN,
  /** When the first attempt is due (ISO 8601). */
  dueAt: str,
};

/** One HTTP attempt of a delivery. */
export const DELIVERY_ATTEMPTED_V1 = {
  ...DELIVERY_REF,
  /** 1 for the first attempt. */
  attempt: num,
  status: oneOf(['succeeded', 'failed']),
  url: str,
  responseCode: numOrNull,
  durationMs: num,
  error: strOrNull,
  /** When the next attempt is due; null once delivered or the schedule is exhausted. */
  nextAttemptAt: strOrNull,
  /** A `POST /v1/webhooks/{id}/test` delivery (single attempt, no retries). */
  test: bool,
};

/** A pending delivery was given up without an attempt (its webhook was disabled or deleted). */
export const DELIVERY_CANCELLED_V1 = { ...DELIVERY_REF, reason: shallow<'webhook_disabled' | 'webhook_deleted'>(str) };

/** An async batch was accepted; checking it is a job on the `jobs` topic. */
export const BATCH_ACCEPTED_V1 = {
  batchId: str,
  policyId: str,
  items: shallow<BatchItemInput[]>((v) => Array.isArray(v) && v.every((i) => obj(i) && str(i.id) && str(i.content))),
  webhookUrl: str,
  /** The registered webhook at webhookUrl whose secret signs the result, or null when
   * none matched and the batch carries its own secret (encrypted). */
  signingWebhookId: strOrNull,
  secretCiphertext: strOrNull,
  acceptedBy: str,
};

export const BATCH_COMPLETED_V1 = { batchId: str, policyId: str, results: list<BatchItemResult>(), succeeded: num, failed: num };

export const BATCH_FAILED_V1 = { batchId: str, policyId: str, error: itemError };

const videoSource = shallow<VideoSource>(
  (v) => obj(v) && ((v.kind === 'url' && str(v.url)) || (v.kind === 'upload' && str(v.sha256) && strOrNull(v.filename) && num(v.bytes))),
);
const videoExtraction = shallow<VideoExtraction>(
  (v) => obj(v) && (v.mode === 'interval' || v.mode === 'scenes') && num(v.frameInterval) && num(v.maxFrames) && bool(v.stopOnBlock),
);

/** A video check was accepted; the worker samples and scores it (a job on `jobs`). */
export const VIDEO_ACCEPTED_V1 = {
  decisionId: str,
  policyId: str,
  source: videoSource,
  /** The request's webhookUrl, or null: the outcome then goes to subscribed webhooks only. */
  webhookUrl: strOrNull,
  signingWebhookId: strOrNull,
  secretCiphertext: strOrNull,
  extraction: videoExtraction,
  maxDurationSeconds: num,
  language: str,
  metadata: object(),
  estimatedFrames: num,
  acceptedBy: str,
};

const videoFrames = shallow<VideoFrameScore[]>(
  (v) =>
    Array.isArray(v) && v.every((f) => obj(f) && num(f.index) && num(f.timestamp) && bool(f.scene) && signalsByProvider(f.signals) && strOrNull(f.ocrText)),
);

/** A checkpoint: every frame scored so far (cumulative), so a worker that dies resumes
 * after the last one recorded. */
export const VIDEO_PROGRESS_V1 = {
  decisionId: str,
  mediaSha256: str,
  probe: object<VideoProbeFacts>(),
  framesTotal: num,
  framesProcessed: num,
  frames: videoFrames,
};

export const VIDEO_COMPLETED_V1 = {
  decisionId: str,
  policyId: str,
  action,
  safe: bool,
  flagged: bool,
  framesProcessed: num,
  /** extractionStrategy.stopOnBlock stopped the scan at a blocked frame. */
  stoppedOnBlock: bool,
};

export const VIDEO_FAILED_V1 = { decisionId: str, policyId: str, error: itemError };

export type DecisionCreatedV2 = DataOf<typeof DECISION_CREATED_V2>;
export type PolicySavedV1 = DataOf<typeof POLICY_SAVED_V1>;
export type KeyCreatedV1 = DataOf<typeof KEY_CREATED_V1>;
export type KeyRevokedV1 = DataOf<typeof KEY_REVOKED_V1>;
export type GuardrailAlertV1 = DataOf<typeof GUARDRAIL_ALERT_V1>;
export type GuardrailDecidedV1 = DataOf<typeof GUARDRAIL_DECIDED_V1>;
export type GuardrailPolicyVersionV1 = DataOf<typeof GUARDRAIL_POLICY_VERSION_V1>;
export type WebhookCreatedV1 = DataOf<typeof WEBHOOK_CREATED_V1>;
export type WebhookUpdatedV1 = DataOf<typeof WEBHOOK_UPDATED_V1>;
export type WebhookDeletedV1 = DataOf<typeof WEBHOOK_DELETED_V1>;
export type WebhookAutoDisabledV1 = DataOf<typeof WEBHOOK_AUTO_DISABLED_V1>;
export type DeliveryPlan = DataOf<typeof DELIVERY_PLAN>;
export type DeliveryScheduledV1 = DataOf<typeof DELIVERY_SCHEDULED_V1>;
export type DeliveryAttemptedV1 = DataOf<typeof DELIVERY_ATTEMPTED_V1>;
export type DeliveryCancelledV1 = DataOf<typeof DELIVERY_CANCELLED_V1>;
export type BatchAcceptedV1 = DataOf<typeof BATCH_ACCEPTED_V1>;
export type BatchCompletedV1 = DataOf<typeof BATCH_COMPLETED_V1>;
export type BatchFailedV1 = DataOf<typeof BATCH_FAILED_V1>;
export type VideoAcceptedV1 = DataOf<typeof VIDEO_ACCEPTED_V1>;
export type VideoProgressV1 = DataOf<typeof VIDEO_PROGRESS_V1>;
export type VideoCompletedV1 = DataOf<typeof VIDEO_COMPLETED_V1>;
export type VideoFailedV1 = DataOf<typeof VIDEO_FAILED_V1>;
