import { DomainEvent } from '@cds/events';
import { BatchDoc, DeliveryAttemptDoc, DeliveryDoc, WebhookDoc } from './documents';

/**
 * What webhook, delivery and batch events do to the read models, as plain data (the
 * counterpart of `toDocWrites`, for every adapter). Creations are inserts that ignore a
 * document already there; later events are patches applied only when the event's log
 * position is newer than the document's (webhooks, deliveries and batches are each keyed
 * by their id, so their events share one partition and offsets order them). Deleting a
 * webhook is a patch too, so replaying its creation cannot bring it back.
 */
export type WebhookDocWrite =
  | { kind: 'webhook'; doc: WebhookDoc }
  | { kind: 'webhook-patch'; tenantId: string; webhookId: string; patch: Partial<WebhookDoc> }
  | { kind: 'delivery'; doc: DeliveryDoc }
  | { kind: 'delivery-patch'; tenantId: string; deliveryId: string; patch: Partial<DeliveryDoc> }
  | { kind: 'delivery-attempt'; doc: DeliveryAttemptDoc }
  | { kind: 'batch'; doc: BatchDoc }
  | { kind: 'batch-patch'; tenantId: string; batchId: string; patch: Partial<BatchDoc> };

export function toWebhookDocWrites(e: DomainEvent): WebhookDocWrite[] {
  const at = e.occurredAt;
  switch (e.type) {
    case 'webhook.created': {
      const d = e.data;
      return [
        {
          kind: 'webhook',
          doc: {
            webhookId: d.webhookId,
            tenantId: e.tenantId,
            url: d.url,
            events: d.events,
            description: d.description,
            enabled: d.enabled,
            secretCiphertext: d.secretCiphertext,
            createdAt: at,
            updatedAt: at,
            disabledReason: null,
            deletedAt: null,
          },
        },
      ];
    }
    case 'webhook.updated': {
      const patch: Partial<WebhookDoc> = { ...e.data.changes, updatedAt: at };
      // Turning a webhook back on clears the reason it was turned off.
      if (e.data.changes.enabled === true) patch.disabledReason = null;
      return [{ kind: 'webhook-patch', tenantId: e.tenantId, webhookId: e.data.webhookId, patch }];
    }
    case 'webhook.deleted':
      return [{ kind: 'webhook-patch', tenantId: e.tenantId, webhookId: e.data.webhookId, patch: { enabled: false, deletedAt: at, updatedAt: at } }];
    case 'webhook.auto_disabled':
      return [
        {
          kind: 'webhook-patch',
          tenantId: e.tenantId,
          webhookId: e.data.webhookId,
          patch: { enabled: false, disabledReason: e.data.reason, updatedAt: at },
        },
      ];
    case 'webhook.delivery.scheduled': {
      const d = e.data;
      return [
        {
          kind: 'delivery',
          doc: {
            deliveryId: d.deliveryId,
            tenantId: e.tenantId,
            webhookId: d.webhookId,
            target: d.target,
            eventId: d.eventId,
            eventType: d.eventType,
            payload: d.payload,
            state: 'pending',
            attempts: 0,
            nextAttemptAt: d.dueAt,
            lastError: null,
            createdAt: at,
            updatedAt: at,
          },
        },
      ];
    }
    case 'webhook.delivery.attempted': {
      const d = e.data;
      const state = d.status === 'succeeded' ? 'succeeded' : d.nextAttemptAt ? 'pending' : 'failed';
      const writes: WebhookDocWrite[] = [
        {
          kind: 'delivery-attempt',
          doc: {
            deliveryId: d.deliveryId,
            tenantId: e.tenantId,
            webhookId: d.webhookId,
            eventId: d.eventId,
            eventType: d.eventType,
            attempt: d.attempt,
            status: d.status,
            url: d.url,
            responseCode: d.responseCode,
            durationMs: d.durationMs,
            error: d.error,
            nextAttemptAt: d.nextAttemptAt,
            test: d.test,
            timestamp: at,
          },
        },
      ];
      if (!d.test) {
        writes.push({
          kind: 'delivery-patch',
          tenantId: e.tenantId,
          deliveryId: d.deliveryId,
          patch: { state, attempts: d.attempt, nextAttemptAt: d.nextAttemptAt, lastError: d.error, updatedAt: at },
        });
      }
      return writes;
    }
    case 'webhook.delivery.cancelled':
      return [
        {
          kind: 'delivery-patch',
          tenantId: e.tenantId,
          deliveryId: e.data.deliveryId,
          patch: { state: 'cancelled', nextAttemptAt: null, lastError: `cancelled: ${e.data.reason}`, updatedAt: at },
        },
      ];
    case 'batch.accepted': {
      const d = e.data;
      return [
        {
          kind: 'batch',
          doc: {
            batchId: d.batchId,
            tenantId: e.tenantId,
            policyId: d.policyId,
            status: 'processing',
            totalItems: d.items.length,
            webhookUrl: d.webhookUrl,
            signingWebhookId: d.signingWebhookId,
            secretCiphertext: d.secretCiphertext,
            results: null,
            succeeded: null,
            failed: null,
            error: null,
            createdAt: at,
            completedAt: null,
          },
        },
      ];
    }
    case 'batch.completed': {
      const d = e.data;
      return [
        {
          kind: 'batch-patch',
          tenantId: e.tenantId,
          batchId: d.batchId,
          patch: { status: 'completed', results: d.results, succeeded: d.succeeded, failed: d.failed, completedAt: at },
        },
      ];
    }
    case 'batch.failed':
      return [{ kind: 'batch-patch', tenantId: e.tenantId, batchId: e.data.batchId, patch: { status: 'failed', error: e.data.error, completedAt: at } }];
    case 'video.accepted': {
      const d = e.data;
      return [
        {
          kind: 'batch',
          doc: {
            batchId: d.decisionId,
            kind: 'video',
            tenantId: e.tenantId,
            policyId: d.policyId,
            status: 'processing',
            totalItems: d.estimatedFrames,
            webhookUrl: d.webhookUrl ?? '',
            signingWebhookId: d.signingWebhookId,
            secretCiphertext: d.secretCiphertext,
            results: null,
            succeeded: null,
            failed: null,
            error: null,
            createdAt: at,
            completedAt: null,
            video: {
              source: d.source,
              extraction: d.extraction,
              maxDurationSeconds: d.maxDurationSeconds,
              language: d.language,
              metadata: d.metadata,
              estimatedFrames: d.estimatedFrames,
            },
            videoProgress: null,
            stoppedOnBlock: false,
          },
        },
      ];
    }
    case 'video.progress': {
      const d = e.data;
      // A checkpoint carries every frame so far: the patch replaces the progress whole.
      return [
        {
          kind: 'batch-patch',
          tenantId: e.tenantId,
          batchId: d.decisionId,
          patch: {
            totalItems: d.framesTotal,
            videoProgress: {
              mediaSha256: d.mediaSha256,
              probe: d.probe,
              framesTotal: d.framesTotal,
              framesProcessed: d.framesProcessed,
              frames: d.frames,
              progressAt: at,
            },
          },
        },
      ];
    }
    case 'video.completed':
      return [
        {
          kind: 'batch-patch',
          tenantId: e.tenantId,
          batchId: e.data.decisionId,
          patch: { status: 'completed', completedAt: at, stoppedOnBlock: e.data.stoppedOnBlock },
        },
      ];
    case 'video.failed':
      return [{ kind: 'batch-patch', tenantId: e.tenantId, batchId: e.data.decisionId, patch: { status: 'failed', error: e.data.error, completedAt: at } }];
    case 'decision.created':
    case 'policy.saved':
    case 'key.created':
    case 'key.revoked':
    case 'guardrail.decided':
    case 'guardrail.policy.updated':
    case 'guardrail.policy.rolled_back':
    case 'agent.guardrail.blocked':
    case 'agent.guardrail.approval_required':
      return [];
    default: {
      const exhaustive: never = e;
      return exhaustive;
    }
  }
}
