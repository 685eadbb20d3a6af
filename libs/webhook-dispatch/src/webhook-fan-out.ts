import { DeliveryScheduled, DeliveryTarget, DomainEvent, envelope, EnvelopeHead } from '@cds/events';
import { WebhookDoc, WebhookReadModels } from '@cds/read-models';
import { deliveryIdOf, JOB_OUTCOME_TYPES, jobOf, subscribersOf, WEBHOOK_SOURCE_TYPES, webhookEventsOf } from '@cds/webhooks';
import { RetrySchedule } from '@cds/backoff';
import { PendingDelivery } from './delivery-queue';

/** The webhooks of each tenant a batch of events names, read once per batch. */
export type WebhooksByTenant = Map<string, Promise<WebhookDoc[]>>;

/**
 * Turns source events (decisions, guardrail alerts, finished batches and videos) into scheduled
 * deliveries: one per webhook event and target, with an id derived from both, so
 * planning the same event twice (a batch redelivered after a crash) plans nothing new.
 */
export class WebhookFanOut {
  constructor(
    private readonly models: WebhookReadModels,
    private readonly schedule: RetrySchedule,
    /** Already planned (queued here, or found in the read models). */
    private readonly planned: (tenantId: string, deliveryId: string) => Promise<boolean>,
  ) {}

  /**
   * Which events may give rise to a delivery, judged from their heads (`envelopeHead`),
   * before they are parsed: those of a type that makes webhook events
   * (WEBHOOK_SOURCE_TYPES) and a tenant with webhooks, and every batch's or video's
   * outcome (it also goes to the job's own webhookUrl). A head that could not be read
   * (null) keeps its event: parsing it decides. `webhooksOf` caches the tenants' webhooks
   * for `plan` of the same batch.
   */
  async mayDeliver(heads: (EnvelopeHead | null)[], webhooksOf: WebhooksByTenant): Promise<boolean[]> {
    const keep = heads.map((h) => h === null || JOB_OUTCOME_TYPES.has(h.type));
    const tenants = new Set(heads.flatMap((h, i) => (h && !keep[i] && WEBHOOK_SOURCE_TYPES.has(h.type) ? [h.tenantId] : [])));
    const withWebhooks = new Set<string>();
    await Promise.all(
      [...tenants].map(async (t) => {
        if ((await this.webhooksOf(t, webhooksOf)).length > 0) withWebhooks.add(t);
      }),
    );
    return heads.map((h, i) => keep[i] || (WEBHOOK_SOURCE_TYPES.has(h!.type) && withWebhooks.has(h!.tenantId)));
  }

  async plan(
    events: DomainEvent[],
    now = new Date(),
    webhooksOf: WebhooksByTenant = new Map(),
  ): Promise<{ scheduled: DeliveryScheduled[]; pending: PendingDelivery[] }> {
    const scheduled: DeliveryScheduled[] = [];
    const seen = new Set<string>();
    for (const e of events) {
      const payloads = webhookEventsOf(e);
      if (payloads.length === 0) continue;
      const webhooks = await this.webhooksOf(e.tenantId, webhooksOf);
      for (const payload of payloads) {
        const targets: DeliveryTarget[] = subscribersOf(webhooks, payload.type, e.occurredAt).map((w) => ({ kind: 'webhook', webhookId: w.webhookId }));
        const job = jobOf(e);
        if (job !== null) {
          const direct = await this.batchTarget(e.tenantId, job.id);
          if (direct && !targets.some((t) => t.kind === 'webhook' && direct.kind === 'webhook' && t.webhookId === direct.webhookId)) targets.push(direct);
        }
        for (const target of targets) {
          const deliveryId = deliveryIdOf(payload.id, target.kind === 'webhook' ? target.webhookId : `batch:${target.batchId}`);
          if (seen.has(deliveryId) || (await this.planned(e.tenantId, deliveryId))) continue;
          seen.add(deliveryId);
          const webhookId = target.kind === 'webhook' ? target.webhookId : null;
          scheduled.push(
            envelope('webhook.delivery.scheduled', 1, e.tenantId, deliveryId, {
              deliveryId,
              webhookId,
              target,
              eventId: payload.id,
              eventType: payload.type,
              payload: { ...payload },
              dueAt: new Date(now.getTime() + (this.schedule[0] ?? 0)).toISOString(),
            }),
          );
        }
      }
    }
    const pending = scheduled.map((s): PendingDelivery => ({
      deliveryId: s.data.deliveryId,
      tenantId: s.tenantId,
      webhookId: s.data.webhookId,
      target: s.data.target,
      eventId: s.data.eventId,
      eventType: s.data.eventType,
      payload: s.data.payload,
      attempts: 0,
      dueAt: Date.parse(s.data.dueAt),
    }));
    return { scheduled, pending };
  }

  private webhooksOf(tenantId: string, cache: WebhooksByTenant): Promise<WebhookDoc[]> {
    let webhooks = cache.get(tenantId);
    if (!webhooks) cache.set(tenantId, (webhooks = this.models.listWebhooks(tenantId)));
    return webhooks;
  }

  /** An async batch's (or a video's) results go to its webhookUrl: as the registered webhook at that
   * URL when there is one (signed with its secret), else with the batch's own secret. */
  private async batchTarget(tenantId: string, batchId: string): Promise<DeliveryTarget | null> {
    const batch = await this.models.getBatch(tenantId, batchId);
    // A video checked without a webhookUrl tells only the subscribed webhooks.
    if (!batch || (!batch.webhookUrl && !batch.signingWebhookId)) return null;
    if (batch.signingWebhookId) return { kind: 'webhook', webhookId: batch.signingWebhookId };
    return { kind: 'batch', batchId, url: batch.webhookUrl };
  }
}
