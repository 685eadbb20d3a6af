/** Content decisions, dry runs and batches (README "Checks", "Dry run", "Multimodal", "Batches").
 * The answers are the service's OpenAPI schemas (openapi.generated.ts, `npm run sdk:types`). */
import type { components } from './openapi.generated';

type Schemas = components['schemas'];

export type Action = Schemas['Action'];

/** `score` is the confidence, 0 to 1; `triggered` is score >= threshold. */
export type CategoryResult = Schemas['CategoryResult'];

/** `content`: text, or an image: raw base64, a data URI, an http(s) URL or a `media:sha256:<hex>` reference.
 * `language`: ISO 639-1, default `en`. `requestId`: an idempotency key in the body; when given, the SDK sends no
 * Idempotency-Key header. */
export type CheckRequest = Omit<Schemas['CheckRequestDto'], 'contentType'> & {
  /** Default `text`. A video goes to `videoCheck` / `videoUpload` (`video` here is 422 UNSUPPORTED_CONTENT_TYPE). */
  contentType?: 'text' | 'image';
};

/** The spec's Check decision. */
export type CheckDecision = Schemas['CheckDecision'];

export type MultimodalContext = Schemas['MultimodalContextDto'];

/** At least one of `text`, `images` (at most 10), `video` (a URL). */
export type MultimodalRequest = Schemas['MultimodalRequestDto'];

/** One item of a multimodal check: `contentRef` is the image's URL or `media:sha256:` reference, absent for text. */
export type MultimodalResult = Schemas['MultimodalResult'];

/** `action` is the most severe over the items; `results` one per item in request order, the text first. */
export type MultimodalDecision = Schemas['MultimodalDecision'];

/** `policy` (unsaved YAML) wins over `policyId`; `mockSignals` replace `mockScores`. */
export type DryRunRequest = Schemas['DryRunRequestDto'];

/** `policyId` is null when an unsaved `policy` was evaluated. */
export type DryRunResult = Schemas['DryRunResult'];

/** The service takes any string as an item's `contentType` and answers that item with an error; these two it checks. */
export type BatchItem = Omit<Schemas['BatchItemDto'], 'contentType'> & { contentType?: 'text' | 'image' };

/** `items`: at most BATCH_MAX_ITEMS (100). */
export type BatchCheckRequest = Omit<Schemas['BatchCheckDto'], 'items'> & { items: BatchItem[] };

export type ItemError = Schemas['ItemError'];

/** One item's decision, or why it could not be checked (the others are unaffected). */
export type BatchItemResult = Schemas['BatchItemResult'];

/** `items` in request order. */
export type BatchCheckResult = Schemas['BatchResult'];

/** `items`: at most ASYNC_BATCH_MAX_ITEMS (1000); `webhookUrl` receives `moderation.completed` or `moderation.failed`. */
export type AsyncBatchRequest = Omit<Schemas['AsyncBatchCheckDto'], 'items'> & { items: BatchItem[] };

/** `webhookSecret` signs the result when no webhook of the tenant is registered at `webhookUrl` (shown once);
 * else `signingWebhookId` names the registered webhook whose secret signs it. */
export type AsyncBatchAccepted = Schemas['AsyncBatchAccepted'];

/** `items`: the per-item results once completed. */
export type Batch = Schemas['AsyncBatch'];
