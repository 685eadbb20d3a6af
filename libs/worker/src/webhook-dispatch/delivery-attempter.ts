import { DeliveryAttempted, DeliveryCancelled, DeliveryCancelledV1, envelope, WebhookAutoDisabled } from '@cds/events';
import { EventLog } from '@cds/event-log';
import { WebhookReadModels } from '@cds/read-models';
import { attemptRecord, EgressPolicy, failedTooLong, nextAttemptAt, openSecret, RetrySchedule, sendSigned } from '@cds/webhooks';
import { appendDurably } from './durable-append';
import { PendingDelivery } from './delivery-queue';

export interface AttempterSettings {
  schedule: RetrySchedule;
  timeoutMs: number;
  disableAfterMs: number;
  egress: EgressPolicy;
  secretKey: Buffer;
}

interface Logger {
  warn(message: string): void;
  log(message: string): void;
}

type Destination = { url: string; secret: string } | { cancel: DeliveryCancelledV1['reason'] };

/**
 * Makes one attempt of a delivery and records it on the log before anything else
 * happens: the attempt event is what stops a restarted dispatcher from sending a
 * delivery again once a 2xx was recorded. Returns the delivery to retry, or null when
 * it is done (delivered, out of attempts, or cancelled).
 */
export class DeliveryAttempter {
  /** Since when each webhook has been failing (null: its last attempt succeeded). */
  private readonly failingSince = new Map<string, string | null>();
  /** Webhooks this process disabled, with the version it saw, until the read models show it. */
  private readonly autoDisabled = new Map<string, string>();

  constructor(
    private readonly log: EventLog,
    private readonly models: WebhookReadModels,
    private readonly settings: AttempterSettings,
    private readonly logger: Logger,
    private readonly stopping: () => boolean,
  ) {}

  async attempt(d: PendingDelivery): Promise<PendingDelivery | null> {
    const ref = { deliveryId: d.deliveryId, webhookId: d.webhookId, eventId: d.eventId, eventType: d.eventType };
    const destination = await this.destinationOf(d);
    if ('cancel' in destination) {
      const event: DeliveryCancelled = envelope('webhook.delivery.cancelled', 1, d.tenantId, d.deliveryId, { ...ref, reason: destination.cancel });
      await this.append('deliveries', [event]);
      return null;
    }
    const startedAt = new Date();
    const result = await sendSigned({
      url: destination.url, secret: destination.secret, payload: d.payload as { id: string; type: string }, timeoutMs: this.settings.timeoutMs,
      egress: this.settings.egress, now: startedAt,
    });
    const attempt = d.attempts + 1;
    const next = result.ok ? null : nextAttemptAt(this.settings.schedule, attempt, new Date());
    const record = attemptRecord(ref, attempt, destination.url, result, next);
    const event: DeliveryAttempted = envelope('webhook.delivery.attempted', 1, d.tenantId, d.deliveryId, record);
    await this.append('deliveries', [event]);
    if (d.webhookId) await this.trackHealth(d.tenantId, d.webhookId, result.ok, event.occurredAt, record.error);
    if (result.ok || !next) {
      if (!result.ok) this.logger.warn(`delivery ${d.deliveryId} (${d.eventType}) failed after ${attempt} attempts: ${record.error}`);
      return null;
    }
    return { ...d, attempts: attempt, dueAt: next.getTime() };
  }

  private async destinationOf(d: PendingDelivery): Promise<Destination> {
    if (d.target.kind === 'batch') {
      const batch = await this.models.getBatch(d.tenantId, d.target.batchId);
      if (!batch?.secretCiphertext) throw new Error(`batch ${d.target.batchId} is not readable yet`);
      return { url: d.target.url, secret: openSecret(this.settings.secretKey, batch.secretCiphertext) };
    }
    const webhook = await this.models.getWebhook(d.tenantId, d.target.webhookId);
    if (!webhook) return { cancel: 'webhook_deleted' };
    const disabledAt = this.autoDisabled.get(webhook.webhookId);
    if (disabledAt !== undefined && webhook.updatedAt <= disabledAt) return { cancel: 'webhook_disabled' };
    this.autoDisabled.delete(webhook.webhookId);
    if (!webhook.enabled) return { cancel: 'webhook_disabled' };
    return { url: webhook.url, secret: openSecret(this.settings.secretKey, webhook.secretCiphertext) };
  }

  /** Auto-disable: a webhook whose attempts have all failed for WEBHOOK_DISABLE_AFTER is turned off. */
  private async trackHealth(tenantId: string, webhookId: string, ok: boolean, at: string, error: string | null): Promise<void> {
    if (ok) return void this.failingSince.set(webhookId, null);
    let since = this.failingSince.get(webhookId);
    if (since === undefined) since = await this.models.webhookFailingSince(tenantId, webhookId);
    since ??= at;
    this.failingSince.set(webhookId, since);
    if (!failedTooLong(since, new Date(at), this.settings.disableAfterMs)) return;
    const webhook = await this.models.getWebhook(tenantId, webhookId);
    if (!webhook?.enabled || this.autoDisabled.has(webhookId)) return;
    const reason = `every delivery attempt failed since ${since}`;
    const event: WebhookAutoDisabled = envelope('webhook.auto_disabled', 1, tenantId, webhookId, { webhookId, reason, failingSince: since, lastError: error });
    await this.append('webhooks', [event]);
    this.autoDisabled.set(webhookId, webhook.updatedAt);
    this.failingSince.delete(webhookId);
    this.logger.warn(`webhook ${webhookId} disabled: ${reason} (last error: ${error})`);
  }

  private append(topic: 'deliveries' | 'webhooks', events: Parameters<typeof appendDurably>[2]) {
    return appendDurably(this.log, topic, events, this.stopping, (err) => this.logger.warn(`recording to ${topic} failed, retrying: ${err.message}`));
  }
}
