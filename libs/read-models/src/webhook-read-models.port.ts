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
  /** Deliveries still `pending` in every tenant, soonest due first. */
  listPendingDeliveries(limit: number): Promise<DeliveryDoc[]>;
  /** Attempts of the webhook's deliveries (test deliveries included), newest first. */
  listDeliveryAttempts(tenantId: string, webhookId: string, limit: number): Promise<DeliveryAttemptDoc[]>;
  /** Time of the first failed attempt since the webhook's last successful one (null
   * when the latest attempt succeeded or there is none): how long it has been failing. */
  webhookFailingSince(tenantId: string, webhookId: string): Promise<string | null>;
  getBatch(tenantId: string, batchId: string): Promise<BatchDoc | null>;
}

const METHODS: (keyof WebhookReadModels)[] = [
  'getWebhook', 'listWebhooks', 'getDelivery', 'listPendingDeliveries', 'listDeliveryAttempts', 'webhookFailingSince', 'getBatch',
];

/** The webhook read models of the adapter behind READ_MODELS; a clear 503 when the
 * configured adapter does not serve them. */
export function webhookReadModels(readModels: ReadModels): WebhookReadModels {
  const candidate = readModels as ReadModels & Partial<WebhookReadModels>;
  if (METHODS.every((m) => typeof candidate[m] === 'function')) return candidate as WebhookReadModels;
  throw new DomainError(
    'unavailable', 'READ_MODELS_UNSUPPORTED', 'Webhooks are not available with this read-models adapter',
    `the ${readModels.constructor.name} adapter does not serve the webhook, delivery and batch read models yet`,
  );
}
