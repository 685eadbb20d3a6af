import { DecisionCreatedV2, DomainEvent } from '@cds/events';
import {
  BatchDoc,
  DecisionDoc,
  DeliveryAttemptDoc,
  DeliveryDoc,
  GuardrailDecisionDoc,
  GuardrailPolicyVersionDoc,
  KeyDoc,
  PolicyDoc,
  WebhookDoc,
} from './documents';

/**
 * What one event does to the read models, as plain data: the same function drives
 * every adapter (SQLite, Elasticsearch), so the models cannot drift apart.
 * - Decisions, keys, guardrail decisions and policy versions, webhooks, deliveries,
 *   delivery attempts and batches are created once: a replayed creation changes nothing.
 * - Policy writes are upserts that keep the first createdAt; key revocation patches.
 * - Guardrail policy versions are inserted, never updated: the newest by log position is
 *   the project's policy.
 * - Webhook, delivery and batch patches apply only when the event's log position is newer
 *   than the document's (each is keyed by its id, so its events share one partition and
 *   offsets order them). Deleting a webhook is a patch too, so replaying its creation
 *   cannot bring it back.
 * - Guardrail alerts are notifications only (the webhook dispatcher reads them from the
 *   log), so they write nothing here.
 */
export type DocWrite =
  | { kind: 'decision'; doc: DecisionDoc }
  | { kind: 'policy'; doc: PolicyDoc }
  | { kind: 'key'; doc: KeyDoc }
  | { kind: 'key-revoked'; tenantId: string; keyId: string; revokedAt: string }
  | { kind: 'guardrail-decision'; doc: GuardrailDecisionDoc }
  | { kind: 'guardrail-policy-version'; doc: GuardrailPolicyVersionDoc }
  | { kind: 'webhook'; doc: WebhookDoc }
  | { kind: 'webhook-patch'; tenantId: string; webhookId: string; patch: Partial<WebhookDoc> }
  | { kind: 'delivery'; doc: DeliveryDoc }
  | { kind: 'delivery-patch'; tenantId: string; deliveryId: string; patch: Partial<DeliveryDoc> }
  | { kind: 'delivery-attempt'; doc: DeliveryAttemptDoc }
  | { kind: 'batch'; doc: BatchDoc }
  | { kind: 'batch-patch'; tenantId: string; batchId: string; patch: Partial<BatchDoc> };

/** The writes of webhooks, deliveries (and their attempts) and batches (and videos). */
export type WebhookDocWrite = Extract<
  DocWrite,
  { kind: 'webhook' | 'webhook-patch' | 'delivery' | 'delivery-patch' | 'delivery-attempt' | 'batch' | 'batch-patch' }
>;

/** A decision's document: its event's data with the tenant and the time of the event. The
 * SQLite read models also complete a document stored as the event's data with it. */
export function decisionDoc(d: DecisionCreatedV2, tenantId: string, timestamp: string): DecisionDoc {
  return {
    decisionId: d.decisionId,
    tenantId,
    requestId: d.requestId,
    content: d.content,
    contentType: d.contentType,
    language: d.language,
    metadata: d.metadata,
    policyId: d.policyId,
    policyVersion: d.policyVersion,
    provider: d.provider,
    signals: d.signals,
    parts: d.parts,
    categories: d.categories,
    action: d.action,
    safe: d.safe,
    flagged: d.flagged,
    latency: d.latency,
    cost: d.cost,
    timestamp,
  };
}

/** A batch or video job as accepted: processing, nothing scored yet. */
function acceptedJob(
  tenantId: string,
  at: string,
  job: Pick<BatchDoc, 'batchId' | 'policyId' | 'totalItems' | 'webhookUrl' | 'signingWebhookId' | 'secretCiphertext'>,
): BatchDoc {
  return {
    batchId: job.batchId,
    tenantId,
    policyId: job.policyId,
    status: 'processing',
    totalItems: job.totalItems,
    webhookUrl: job.webhookUrl,
    signingWebhookId: job.signingWebhookId,
    secretCiphertext: job.secretCiphertext,
    results: null,
    succeeded: null,
    failed: null,
    error: null,
    createdAt: at,
    completedAt: null,
  };
}

export function toDocWrites(e: DomainEvent): DocWrite[] {
  const at = e.occurredAt;
  switch (e.type) {
    case 'decision.created':
      return [{ kind: 'decision', doc: decisionDoc(e.data, e.tenantId, e.occurredAt) }];
    case 'policy.saved': {
      const d = e.data;
      return [
        {
          kind: 'policy',
          doc: {
            tenantId: e.tenantId,
            policyId: d.policyId,
            name: d.name,
            version: d.version,
            yamlContent: d.yamlContent,
            categories: d.categories,
            createdAt: e.occurredAt,
            updatedAt: e.occurredAt,
            updatedBy: d.savedBy,
          },
        },
      ];
    }
    case 'key.created': {
      const d = e.data;
      return [
        {
          kind: 'key',
          doc: {
            keyId: d.keyId,
            tenantId: e.tenantId,
            name: d.name,
            scopes: d.scopes,
            hash: d.hash,
            prefix: d.prefix,
            createdAt: e.occurredAt,
            createdBy: d.createdBy,
            revokedAt: null,
          },
        },
      ];
    }
    case 'key.revoked':
      return [{ kind: 'key-revoked', tenantId: e.tenantId, keyId: e.data.keyId, revokedAt: e.occurredAt }];
    case 'guardrail.decided': {
      const d = e.data;
      return [
        {
          kind: 'guardrail-decision',
          doc: {
            decisionId: d.decisionId,
            tenantId: e.tenantId,
            projectId: d.projectId,
            kind: d.kind,
            action: d.action,
            riskScore: d.riskScore,
            reasons: d.reasons,
            categories: d.categories,
            requiresApproval: d.requiresApproval,
            request: d.request,
            policy: d.policy,
            policyOrigin: d.policyOrigin,
            decidedBy: d.decidedBy,
            latency: d.latency,
            timestamp: e.occurredAt,
            ...(d.skill ? { skill: { skillId: d.skill.skillId, contentHash: d.skill.contentHash } } : {}),
            ...(d.session ? { session: { sessionId: d.session.sessionId, facts: d.session.facts } } : {}),
          },
        },
      ];
    }
    case 'guardrail.policy.updated':
    case 'guardrail.policy.rolled_back': {
      const d = e.data;
      return [
        {
          kind: 'guardrail-policy-version',
          doc: {
            tenantId: e.tenantId,
            projectId: d.projectId,
            version: d.version,
            policy: d.policy,
            updatedAt: e.occurredAt,
            updatedBy: d.updatedBy,
            restoredVersion: d.restoredVersion,
          },
        },
      ];
    }
    case 'agent.guardrail.blocked':
    case 'agent.guardrail.approval_required':
      return [];
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
      return [{ kind: 'batch', doc: acceptedJob(e.tenantId, at, { ...d, totalItems: d.items.length }) }];
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
            ...acceptedJob(e.tenantId, at, { ...d, batchId: d.decisionId, totalItems: d.estimatedFrames, webhookUrl: d.webhookUrl ?? '' }),
            kind: 'video',
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
    default: {
      const exhaustive: never = e;
      return exhaustive;
    }
  }
}
