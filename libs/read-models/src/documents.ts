import {
  Action,
  BatchItemResult,
  DecisionCreatedV2,
  DeliveryAttemptedV1,
  DeliveryPlan,
  GuardrailDecidedV1,
  GuardrailPolicyData,
  VideoExtraction,
  VideoFrameScore,
  VideoProbeFacts,
  VideoSource,
  WebhookEventType,
} from '@cds/events';

/** Where a document's latest state came from: guards against older events. */
export interface DocPosition {
  topic: string;
  partition: number;
  offset: number;
}

/** A decision: its event's data (decision.created, v2) with the tenant and the time of the event. */
export interface DecisionDoc extends DecisionCreatedV2 {
  tenantId: string;
  timestamp: string;
}

export interface PolicyDoc {
  tenantId: string;
  policyId: string;
  name: string;
  version: number;
  yamlContent: string;
  categories: Record<string, { threshold: number; action: Action; provider?: string }>;
  createdAt: string;
  updatedAt: string;
  updatedBy: string;
}

export interface KeyDoc {
  keyId: string;
  tenantId: string;
  name: string;
  scopes: string[];
  hash: string;
  prefix: string;
  createdAt: string;
  createdBy: string;
  revokedAt: string | null;
}

export interface DecisionFilter {
  limit: number;
  offset: number;
  action?: Action;
  policyId?: string;
  /** Inclusive bounds on the decision's timestamp (ISO 8601 UTC). */
  from?: string;
  to?: string;
  /** `metadata.userId` equals this (a string or number userId, compared as text). */
  userId?: string;
  /** Only decisions in which this category triggered. */
  category?: string;
  /** Full text over the content: every word (analyzed) on Elasticsearch, a
   * case-insensitive substring on SQLite. */
  q?: string;
}

/** A guardrail decision: its event's data (guardrail.decided) with the tenant and the time
 * of the event; what the prompt-attack model said (promptModel) stays on the log. */
export interface GuardrailDecisionDoc extends Omit<GuardrailDecidedV1, 'promptModel'> {
  tenantId: string;
  timestamp: string;
}

/** An earlier action of a session, as its sequence rules need it. */
export interface GuardrailSessionActionDoc {
  decisionId: string;
  timestamp: string;
  actionType: string;
  command: string;
  targetPath: string;
  categories: string[];
  facts: Array<{ kind: string; value: string }>;
}

/** One entry of a project's guardrail policy history; the newest is the project's policy. */
export interface GuardrailPolicyVersionDoc {
  tenantId: string;
  projectId: string;
  version: string;
  policy: GuardrailPolicyData;
  updatedAt: string;
  updatedBy: string;
  restoredVersion: string | null;
}

export interface GuardrailDayCounts {
  /** YYYY-MM-DD (UTC). */
  date: string;
  total: number;
  blocked: number;
  approvalRequired: number;
}

/** Counts over a time window; `daily` lists only the days that have decisions, oldest first. */
export interface GuardrailCounts {
  total: number;
  blocked: number;
  approvalRequired: number;
  skillVetting: number;
  runtimeAuthorization: number;
  daily: GuardrailDayCounts[];
}

/** A registered webhook. `secretCiphertext` is the AES-256-GCM box of the signing
 * secret; a deleted webhook keeps its row (so a replay cannot resurrect it) with `deletedAt`. */
export interface WebhookDoc {
  webhookId: string;
  tenantId: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  secretCiphertext: string;
  createdAt: string;
  updatedAt: string;
  /** Why the dispatcher disabled it (auto-disable), null otherwise. */
  disabledReason: string | null;
  deletedAt: string | null;
}

/** `pending` until delivered (`succeeded`), out of attempts (`failed`) or `cancelled`. */
export type DeliveryState = 'pending' | 'succeeded' | 'failed' | 'cancelled';

/** One delivery (one event to one target) and where it stands: what the dispatcher
 * resumes from after a restart. */
export interface DeliveryDoc extends DeliveryPlan {
  tenantId: string;
  state: DeliveryState;
  attempts: number;
  /** Due time of the next attempt while pending, null otherwise. */
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One HTTP attempt of a delivery, as `GET /v1/webhooks/{id}/deliveries` lists it. */
export interface DeliveryAttemptDoc extends DeliveryAttemptedV1 {
  tenantId: string;
  timestamp: string;
}

export type BatchState = 'processing' | 'completed' | 'failed';

/** What a video job was asked to do (from `video.accepted`). */
export interface VideoJobSpec {
  source: VideoSource;
  extraction: VideoExtraction;
  maxDurationSeconds: number;
  language: string;
  metadata: Record<string, unknown>;
  estimatedFrames: number;
}

/** How far a video job got: the last checkpoint (`video.progress`), replaced whole by the next. */
export interface VideoJobProgress {
  mediaSha256: string;
  probe: VideoProbeFacts;
  framesTotal: number;
  framesProcessed: number;
  /** Every frame scored so far. */
  frames: VideoFrameScore[];
  /** When the checkpoint was recorded. */
  progressAt: string;
}

/**
 * A job on the `jobs` topic: an async batch (`kind: batch`, the default) or a video check
 * (`kind: video`, `batchId` its decisionId). Both finish with a delivery to the request's
 * webhookUrl, which reads the signing secret here.
 */
export interface BatchDoc {
  batchId: string;
  kind?: 'batch' | 'video';
  video?: VideoJobSpec | null;
  videoProgress?: VideoJobProgress | null;
  stoppedOnBlock?: boolean;
  tenantId: string;
  policyId: string;
  status: BatchState;
  totalItems: number;
  webhookUrl: string;
  signingWebhookId: string | null;
  secretCiphertext: string | null;
  /** Per item, in request order, once completed. */
  results: BatchItemResult[] | null;
  succeeded: number | null;
  failed: number | null;
  error: { code: string; message: string; details: string } | null;
  createdAt: string;
  completedAt: string | null;
}
