import { DomainError } from '@cds/errors';
import { BatchDoc, DeliveryAttemptDoc, DeliveryDoc, WebhookDoc } from './documents';
import { ReadModels } from './read-models.port';

/**
 * The webhook, delivery and batch read models (filled from `toWebhookDocWrites`).
 * A separate interface beside ReadModels until every adapter serves them; the adapter
 * behind READ_MODELS implements both (see `webhookReadModels`). Tenant-scoped, except
 * `listPendingDeliveries`, which is the dispatcher's recovery after a restart.
 */
export interface WebhookReadModels {
  /** A live (not deleted) webhook of the tenant. */
  getWebhook(tenantId: string, webhookId: string): Promise<WebhookDoc | null>;
  /** The tenant's live webhooks, oldest first. */
  listWebhooks(tenantId: string): Promise<WebhookDoc[]>;
  getDelivery(tenantId: string, deliveryId: string): Promise<DeliveryDoc | null>;
  /** Deliveries still `pending` in every tenant, in (nextAttemptAt, deliveryId) order:
   * up to `limit` of those after `after` (keyset paging, so a page costs the same at any
   * depth and no search window caps the walk). A pending delivery always has a due time. */
  listPendingDeliveries(limit: number, after?: PendingCursor | null): Promise<DeliveryDoc[]>;
  /** Attempts of the webhook's deliveries (test deliveries included), newest first. */
  listDeliveryAttempts(tenantId: string, webhookId: string, limit: number): Promise<DeliveryAttemptDoc[]>;
  /** Time of the first failed attempt after both the webhook's last successful one and
   * `notBefore` (null when there is none): how long it has been failing. `notBefore` is
   * where the count restarts besides a success, e.g. the webhook's last update (turned
   * back on after an auto-disable). */
  webhookFailingSince(tenantId: string, webhookId: string, notBefore?: string | null): Promise<string | null>;
  getBatch(tenantId: string, batchId: string): Promise<BatchDoc | null>;
}

/** Where a page of pending deliveries ended (its last delivery): the next page starts after it. */
export type PendingCursor = Pick<DeliveryDoc, 'nextAttemptAt' | 'deliveryId'>;

/** Every call of WebhookReadModels (what an adapter must have to serve them). */
export const WEBHOOK_READ_METHODS: readonly (keyof WebhookReadModels)[] = [
  'getWebhook',
  'listWebhooks',
  'getDelivery',
  'listPendingDeliveries',
  'listDeliveryAttempts',
  'webhookFailingSince',
  'getBatch',
];

/** The webhook read models of the adapter behind READ_MODELS; a clear 503 when the
 * configured adapter does not serve them. */
export function webhookReadModels(readModels: ReadModels): WebhookReadModels {
  const candidate = readModels as ReadModels & Partial<WebhookReadModels>;
  if (WEBHOOK_READ_METHODS.every((m) => typeof candidate[m] === 'function')) return candidate as WebhookReadModels;
  throw new DomainError(
    'unavailable',
    'READ_MODELS_UNSUPPORTED',
    'Webhooks are not available with this read-models adapter',
    `the ${readModels.constructor.name} adapter does not serve the webhook, delivery and batch read models yet`,
  );
}
