import { DeliveryAttempted, DeliveryCancelled, DeliveryCancelledV1, envelope, WebhookAutoDisabled } from '@cds/events';
import { EventLog } from '@cds/event-log';
import { WebhookDoc, WebhookReadModels } from '@cds/read-models';
import { attemptRecord, DeliveryResult, failedTooLong, openSecret, SecretBoxError, sendSigned, SignedSend } from '@cds/webhooks';
import { EgressPolicy } from '@cds/egress';
import { nextAttemptAt, RetrySchedule } from '@cds/backoff';
import { appendDurably } from './durable-append';
import { AttemptOutcome, PendingDelivery } from './delivery-queue';

export interface AttempterSettings {
  schedule: RetrySchedule;
  timeoutMs: number;
  disableAfterMs: number;
  egress: EgressPolicy;
  secretKey: Buffer;
  /** Told of every attempt recorded: succeeded, failed (another attempt is due) or gave_up. */
  observe?: (outcome: 'succeeded' | 'failed' | 'gave_up', eventType: string) => void;
}

interface Logger {
  warn(message: string): void;
  log(message: string): void;
  error(message: string): void;
}

/** What the attempter does I/O with besides the log and the read models (fakes in unit tests). */
export interface AttempterDeps {
  send: (s: SignedSend) => Promise<DeliveryResult>;
  now: () => Date;
}

type Destination =
  | { cancel: DeliveryCancelledV1['reason'] }
  /** `secret` null: the sealed secret cannot be opened with this process's key (`unopenable` says why). */
  | { url: string; secret: string | null; unopenable?: string; webhook: WebhookDoc | null };

/** A notBefore that is no bound at all. */
const EPOCH = new Date(0).toISOString();

/**
 * Makes one attempt of a delivery and records it on the log before anything else
 * happens: the attempt event is what stops a restarted dispatcher from sending a
 * delivery again once a 2xx was recorded. Its outcome is explicit (see AttemptOutcome):
 * once an attempt is recorded, nothing after it (health tracking) can change what
 * happens to the delivery; when nothing could be recorded, the same attempt is tried
 * again later.
 */
export class DeliveryAttempter {
  /** When this process last recorded a 2xx per webhook: a success the read models may not show yet. */
  private readonly lastSucceeded = new Map<string, string>();
  /** Failing-since per webhook as last read, with the bound it was read under. */
  private readonly failing = new Map<string, { since: string; notBefore: string }>();
  /** Webhooks this process disabled, with the version it saw, until the read models show it. */
  private readonly autoDisabled = new Map<string, string>();

  constructor(
    private readonly log: EventLog,
    private readonly models: WebhookReadModels,
    private readonly settings: AttempterSettings,
    private readonly logger: Logger,
    private readonly stopping: () => boolean,
    private readonly deps: AttempterDeps = { send: sendSigned, now: () => new Date() },
  ) {}

  async attempt(d: PendingDelivery): Promise<AttemptOutcome> {
    const ref = { deliveryId: d.deliveryId, webhookId: d.webhookId, eventId: d.eventId, eventType: d.eventType };
    let destination: Destination;
    try {
      destination = await this.destinationOf(d);
    } catch (err) {
      return { kind: 'retry-later', reason: `cannot read where to send it: ${(err as Error).message}` };
    }
    if ('cancel' in destination) {
      const event: DeliveryCancelled = envelope('webhook.delivery.cancelled', 1, d.tenantId, d.deliveryId, { ...ref, reason: destination.cancel });
      return (await this.record('deliveries', [event], 'the cancellation')) ?? { kind: 'done' };
    }
    if (destination.secret === null) this.logger.error(`delivery ${d.deliveryId}: ${destination.unopenable}`);
    const result =
      destination.secret === null
        ? unsent(`not sent: ${destination.unopenable}`)
        : await this.deps.send({
            url: destination.url,
            secret: destination.secret,
            payload: d.payload as { id: string; type: string },
            timeoutMs: this.settings.timeoutMs,
            egress: this.settings.egress,
            now: this.deps.now(),
          });
    const attempt = d.attempts + 1;
    const next = result.ok ? null : nextAttemptAt(this.settings.schedule, attempt, this.deps.now());
    const record = attemptRecord(ref, attempt, destination.url, result, next);
    const event: DeliveryAttempted = envelope('webhook.delivery.attempted', 1, d.tenantId, d.deliveryId, record, this.deps.now());
    const unrecorded = await this.record('deliveries', [event], `attempt ${attempt}`);
    if (unrecorded) return unrecorded;
    this.settings.observe?.(result.ok ? 'succeeded' : next ? 'failed' : 'gave_up', d.eventType);
    if (destination.webhook) await this.trackHealth(destination.webhook, result.ok, event.occurredAt, record.error);
    if (result.ok) return { kind: 'done' };
    if (!next) {
      this.logger.warn(`delivery ${d.deliveryId} (${d.eventType}) failed after ${attempt} attempts: ${record.error}`);
      return { kind: 'done' };
    }
    return { kind: 'retry', next: { ...d, attempts: attempt, dueAt: next.getTime(), deferrals: 0 } };
  }

  private async destinationOf(d: PendingDelivery): Promise<Destination> {
    if (d.target.kind === 'batch') {
      const batch = await this.models.getBatch(d.tenantId, d.target.batchId);
      if (!batch?.secretCiphertext) throw new Error(`batch ${d.target.batchId} is not readable yet`);
      return { url: d.target.url, ...this.open(batch.secretCiphertext), webhook: null };
    }
    const webhook = await this.models.getWebhook(d.tenantId, d.target.webhookId);
    if (!webhook) return { cancel: 'webhook_deleted' };
    const disabledAt = this.autoDisabled.get(webhook.webhookId);
    if (disabledAt !== undefined && webhook.updatedAt <= disabledAt) return { cancel: 'webhook_disabled' };
    this.autoDisabled.delete(webhook.webhookId);
    if (!webhook.enabled) return { cancel: 'webhook_disabled' };
    return { url: webhook.url, ...this.open(webhook.secretCiphertext), webhook };
  }

  /** An unopenable secret is a failed attempt like any other (recorded, on the schedule),
   * not a fault to retry at once: another key will not appear by itself. */
  private open(box: string): { secret: string | null; unopenable?: string } {
    try {
      return { secret: openSecret(this.settings.secretKey, box) };
    } catch (err) {
      if (!(err instanceof SecretBoxError)) throw err;
      return { secret: null, unopenable: err.message };
    }
  }

  /** Null once on the log; a `retry-later` when the process stops before the log took it
   * (the attempt is then made again after the restart: at least once). */
  private async record(topic: 'deliveries', events: Parameters<typeof appendDurably>[2], what: string): Promise<AttemptOutcome | null> {
    try {
      await this.append(topic, events);
      return null;
    } catch (err) {
      return { kind: 'retry-later', reason: `${what} was not recorded: ${(err as Error).message}` };
    }
  }

  /** Health tracking never decides a delivery's outcome: a failure here is logged, and
   * the next failed attempt looks again. A stopping process leaves it to the next one: its
   * reads wait for the projection, and a projector stopped first (compose stops every
   * service at once) made a worker's stop wait 5 s a read, 15 s in all. */
  private async trackHealth(webhook: WebhookDoc, ok: boolean, at: string, error: string | null): Promise<void> {
    if (this.stopping()) return;
    try {
      await this.checkHealth(webhook, ok, at, error);
    } catch (err) {
      this.logger.warn(`webhook ${webhook.webhookId}: health not checked after this attempt: ${(err as Error).message}`);
    }
  }

  /**
   * Auto-disable: a webhook whose attempts have all failed for WEBHOOK_DISABLE_AFTER is
   * turned off. The count restarts at a success (this process's, or one only the read
   * models know of, such as a test delivery made by the api) and at any change of the
   * webhook (`updatedAt`), above all turning it back on after an auto-disable.
   */
  private async checkHealth(webhook: WebhookDoc, ok: boolean, at: string, error: string | null): Promise<void> {
    const { tenantId, webhookId } = webhook;
    if (ok) {
      this.lastSucceeded.set(webhookId, at);
      this.failing.delete(webhookId);
      return;
    }
    const now = new Date(at);
    const disableAfter = this.settings.disableAfterMs;
    const notBefore = laterOf(webhook.updatedAt, this.lastSucceeded.get(webhookId) ?? EPOCH);
    if (!failedTooLong(notBefore, now, disableAfter)) return; // it cannot have been failing that long
    let known = this.failing.get(webhookId);
    // Read again when the bound moved or when what was read would disable it: the read
    // models may know of a later success since.
    if (!known || known.notBefore !== notBefore || failedTooLong(known.since, now, disableAfter)) {
      known = { since: (await this.models.webhookFailingSince(tenantId, webhookId, notBefore)) ?? at, notBefore };
      this.failing.set(webhookId, known);
    }
    if (!failedTooLong(known.since, now, disableAfter)) return;
    const current = await this.models.getWebhook(tenantId, webhookId);
    if (!current?.enabled || this.autoDisabled.has(webhookId)) return;
    const reason = `every delivery attempt failed since ${known.since}`;
    const event: WebhookAutoDisabled = envelope('webhook.auto_disabled', 1, tenantId, webhookId, {
      webhookId,
      reason,
      failingSince: known.since,
      lastError: error,
    });
    await this.append('webhooks', [event]);
    this.autoDisabled.set(webhookId, current.updatedAt);
    this.failing.delete(webhookId);
    this.logger.warn(`webhook ${webhookId} disabled: ${reason} (last error: ${error})`);
  }

  private append(topic: 'deliveries' | 'webhooks', events: Parameters<typeof appendDurably>[2]) {
    return appendDurably(this.log, topic, events, this.stopping, (err) => this.logger.warn(`recording to ${topic} failed, retrying: ${err.message}`));
  }
}

/** The later of two ISO-8601 UTC times (same format: they compare as strings). */
const laterOf = (a: string, b: string) => (a >= b ? a : b);

function unsent(error: string): DeliveryResult {
  return { ok: false, status: null, durationMs: 0, error, responseSnippet: '' };
}
