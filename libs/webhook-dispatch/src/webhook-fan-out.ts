import { DeliveryScheduled, DeliveryTarget, DomainEvent, envelope } from '@cds/events';
import { WebhookDoc, WebhookReadModels } from '@cds/read-models';
import { deliveryIdOf, RetrySchedule, subscribersOf, webhookEventsOf } from '@cds/webhooks';
import { PendingDelivery } from './delivery-queue';

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

  async plan(events: DomainEvent[], now = new Date()): Promise<{ scheduled: DeliveryScheduled[]; pending: PendingDelivery[] }> {
    const scheduled: DeliveryScheduled[] = [];
    const webhooksOf = new Map<string, Promise<WebhookDoc[]>>();
    const seen = new Set<string>();
    for (const e of events) {
      const payloads = webhookEventsOf(e);
      if (payloads.length === 0) continue;
      if (!webhooksOf.has(e.tenantId)) webhooksOf.set(e.tenantId, this.models.listWebhooks(e.tenantId));
      const webhooks = await webhooksOf.get(e.tenantId)!;
      for (const payload of payloads) {
        const targets: DeliveryTarget[] = subscribersOf(webhooks, payload.type, e.occurredAt).map((w) => ({ kind: 'webhook', webhookId: w.webhookId }));
        const job =
          e.type === 'batch.completed' || e.type === 'batch.failed'
            ? e.data.batchId
            : e.type === 'video.completed' || e.type === 'video.failed'
              ? e.data.decisionId
              : null;
        if (job !== null) {
          const direct = await this.batchTarget(e.tenantId, job);
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
