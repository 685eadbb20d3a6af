/** Content decisions, dry runs and batches (README "Checks", "Dry run", "Multimodal", "Batches").
 * The answers are the service's OpenAPI schemas (openapi.generated.ts, `npm run sdk:types`). */
import type { components } from './openapi.generated';

type Schemas = components['schemas'];

export type Action = Schemas['CheckDecision']['action'];

/** `score` is the confidence, 0 to 1; `triggered` is score >= threshold. */
export type CategoryResult = Schemas['CategoryResult'];

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
export type CheckDecision = Schemas['CheckDecision'];

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

/** One item of a multimodal check: `contentRef` is the image's URL or `media:sha256:` reference, absent for text. */
export type MultimodalResult = Schemas['MultimodalResult'];

/** `action` is the most severe over the items; `results` one per item in request order, the text first. */
export type MultimodalDecision = Schemas['MultimodalDecision'];

/** `policy` (unsaved YAML) wins over `policyId`; `mockSignals` replace `mockScores`. */
export interface DryRunRequest {
  policyId?: string;
  policy?: string;
  mockScores?: Record<string, number>;
  mockSignals?: Record<string, number>;
}

/** `policyId` is null when an unsaved `policy` was evaluated. */
export type DryRunResult = Schemas['DryRunResult'];

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

export type ItemError = Schemas['ItemError'];

/** One item's decision, or why it could not be checked (the others are unaffected). */
export type BatchItemResult = Schemas['BatchItemResult'];

/** `items` in request order. */
export type BatchCheckResult = Schemas['BatchResult'];

export interface AsyncBatchRequest {
  policyId: string;
  /** At most ASYNC_BATCH_MAX_ITEMS (1000). */
  items: BatchItem[];
  /** Receives `moderation.completed` or `moderation.failed`. */
  webhookUrl: string;
}

/** `webhookSecret` signs the result when no webhook of the tenant is registered at `webhookUrl` (shown once);
 * else `signingWebhookId` names the registered webhook whose secret signs it. */
export type AsyncBatchAccepted = Schemas['AsyncBatchAccepted'];

/** `items`: the per-item results once completed. */
export type Batch = Schemas['AsyncBatch'];
