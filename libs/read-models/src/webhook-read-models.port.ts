import { BatchDoc, DeliveryAttemptDoc, DeliveryDoc, WebhookDoc } from './documents';

/**
 * The query port of webhooks, deliveries and batches (filled from `toDocWrites`): what
 * the webhook dispatcher and the batch and video services read, beside the other
 * contexts' ports (query-read-models.port.ts). Tenant-scoped, except
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
