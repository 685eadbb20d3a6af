import { DomainEvent } from '@cds/events';
import { DecisionDoc, GuardrailDecisionDoc, GuardrailPolicyVersionDoc, KeyDoc, PolicyDoc } from './documents';

/**
 * What one event does to the read models, as plain data: the same function drives
 * every adapter (SQLite, Elasticsearch), so the models cannot drift apart.
 * Policy writes are upserts that keep the first createdAt; key revocation patches.
 * Guardrail policy versions are inserted, never updated: the newest by log position is
 * the project's policy. Guardrail alerts are notifications only (the webhook dispatcher
 * reads them from the log), so they write nothing here. Webhook, delivery and batch
 * events map through `toWebhookDocWrites` (webhook-projection.ts), a separate union so
 * adapters that do not serve those models yet keep compiling.
 */
export type DocWrite =
  | { kind: 'decision'; doc: DecisionDoc }
  | { kind: 'policy'; doc: PolicyDoc }
  | { kind: 'key'; doc: KeyDoc }
  | { kind: 'key-revoked'; tenantId: string; keyId: string; revokedAt: string }
  | { kind: 'guardrail-decision'; doc: GuardrailDecisionDoc }
  | { kind: 'guardrail-policy-version'; doc: GuardrailPolicyVersionDoc };

export function toDocWrites(e: DomainEvent): DocWrite[] {
  switch (e.type) {
    case 'decision.created': {
      const d = e.data;
      return [
        {
          kind: 'decision',
          doc: {
            decisionId: d.decisionId,
            tenantId: e.tenantId,
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
            timestamp: e.occurredAt,
          },
        },
      ];
    }
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
    case 'webhook.created':
    case 'webhook.updated':
    case 'webhook.deleted':
    case 'webhook.auto_disabled':
    case 'webhook.delivery.scheduled':
    case 'webhook.delivery.attempted':
    case 'webhook.delivery.cancelled':
    case 'batch.accepted':
    case 'batch.completed':
    case 'batch.failed':
    case 'video.accepted':
    case 'video.progress':
    case 'video.completed':
    case 'video.failed':
      return [];
    default: {
      const exhaustive: never = e;
      return exhaustive;
    }
  }
}
