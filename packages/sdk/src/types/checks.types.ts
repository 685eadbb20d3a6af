/** Content decisions, dry runs and batches (README "Checks", "Dry run", "Multimodal", "Batches"). */

export type Action = 'allow' | 'warn' | 'flag' | 'block';

export interface CategoryResult {
  category: string;
  /** Confidence, 0 to 1. */
  score: number;
  threshold: number;
  /** score >= threshold */
  triggered: boolean;
}

export interface CheckRequest {
  /** Text, or an image: raw base64, a data URI, an http(s) URL or a `media:sha256:<hex>` reference. */
  content: string;
  policyId: string;
  /** Default `text`. A video goes to `videoCheck` / `videoUpload` (`video` here is 422 UNSUPPORTED_CONTENT_TYPE). */
  contentType?: 'text' | 'image';
  /** ISO 639-1, default `en`. */
  language?: string;
  metadata?: Record<string, unknown>;
  /** Idempotency key in the body; when given, the SDK sends no Idempotency-Key header. */
  requestId?: string;
}

/** The spec's Check decision. */
export interface CheckDecision {
  safe: boolean;
  flagged: boolean;
  action: Action;
  categories: CategoryResult[];
  decisionId: string;
  provider: string;
  /** Milliseconds. */
  latency: number;
  /** USD. */
  cost: number;
}

export interface MultimodalContext {
  language?: string;
  useCase?: string;
  userId?: string;
  userReputation?: number;
  locale?: string;
}

/** At least one of `text`, `images` (at most 10), `video` (a URL). */
export interface MultimodalRequest {
  text?: string;
  images?: string[];
  video?: string;
  policyId: string;
  context?: MultimodalContext;
  metadata?: Record<string, unknown>;
  requestId?: string;
}

export interface MultimodalResult {
  contentType: 'text' | 'image' | 'video';
  /** The image's URL or `media:sha256:` reference; absent for text. */
  contentRef?: string;
  safe: boolean;
  flagged: boolean;
  action: Action;
  categories: CategoryResult[];
}

export interface MultimodalDecision {
  decisionId: string;
  safe: boolean;
  flagged: boolean;
  /** The most severe over the items. */
  action: Action;
  /** One per item in request order, the text first. */
  results: MultimodalResult[];
  totalLatency: number;
  totalCost: number;
}

/** `policy` (unsaved YAML) wins over `policyId`; `mockSignals` replace `mockScores`. */
export interface DryRunRequest {
  policyId?: string;
  policy?: string;
  mockScores?: Record<string, number>;
  mockSignals?: Record<string, number>;
}

export interface DryRunResult {
  dryRun: true;
  /** null when an unsaved `policy` was evaluated. */
  policyId: string | null;
  safe: boolean;
  flagged: boolean;
  action: Action;
  categories: CategoryResult[];
}

export interface BatchItem {
  id: string;
  content: string;
  contentType?: 'text' | 'image';
  metadata?: Record<string, unknown>;
}

export interface BatchCheckRequest {
  policyId: string;
  /** At most BATCH_MAX_ITEMS (100). */
  items: BatchItem[];
}

export interface ItemError {
  code: string;
  message: string;
  details: string;
}

/** One item's decision, or why it could not be checked (the others are unaffected). */
export type BatchItemResult = { id: string; safe: boolean; action: Action; decisionId: string } | { id: string; error: ItemError };

export interface BatchCheckResult {
  /** In request order. */
  items: BatchItemResult[];
}

export interface AsyncBatchRequest {
  policyId: string;
  /** At most ASYNC_BATCH_MAX_ITEMS (1000). */
  items: BatchItem[];
  /** Receives `moderation.completed` or `moderation.failed`. */
  webhookUrl: string;
}

export interface AsyncBatchAccepted {
  batchId: string;
  status: 'processing';
  totalItems: number;
  /** Signs the result when no webhook of the tenant is registered at `webhookUrl` (shown once). */
  webhookSecret?: string;
  /** The registered webhook whose secret signs the result. */
  signingWebhookId?: string;
}

export interface Batch {
  batchId: string;
  status: 'processing' | 'completed' | 'failed';
  policyId: string;
  totalItems: number;
  webhookUrl: string;
  createdAt: string;
  completedAt: string | null;
  succeeded: number | null;
  failed: number | null;
  /** Per-item results once completed. */
  items: BatchItemResult[] | null;
  error: ItemError | null;
}
