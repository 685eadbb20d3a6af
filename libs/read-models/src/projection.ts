import { DomainEvent } from '@cds/events';
import { DecisionDoc, KeyDoc, PolicyDoc } from './documents';

/**
 * What one event does to the read models, as plain data: the same function drives
 * every adapter (SQLite, Elasticsearch), so the models cannot drift apart.
 * Policy writes are upserts that keep the first createdAt; key revocation patches.
 */
export type DocWrite =
  | { kind: 'decision'; doc: DecisionDoc }
  | { kind: 'policy'; doc: PolicyDoc }
  | { kind: 'key'; doc: KeyDoc }
  | { kind: 'key-revoked'; tenantId: string; keyId: string; revokedAt: string };

export function toDocWrites(e: DomainEvent): DocWrite[] {
  switch (e.type) {
    case 'decision.created': {
      const d = e.data;
      return [{
        kind: 'decision',
        doc: {
          decisionId: d.decisionId, tenantId: e.tenantId, requestId: d.requestId, content: d.content,
          contentType: d.contentType, language: d.language, metadata: d.metadata, policyId: d.policyId,
          policyVersion: d.policyVersion, provider: d.provider, signals: d.signals, categories: d.categories,
          action: d.action, safe: d.safe, flagged: d.flagged, latency: d.latency, cost: d.cost, timestamp: e.occurredAt,
        },
      }];
    }
    case 'policy.saved': {
      const d = e.data;
      return [{
        kind: 'policy',
        doc: {
          tenantId: e.tenantId, policyId: d.policyId, name: d.name, version: d.version, yamlContent: d.yamlContent,
          categories: d.categories, createdAt: e.occurredAt, updatedAt: e.occurredAt, updatedBy: d.savedBy,
        },
      }];
    }
    case 'key.created': {
      const d = e.data;
      return [{
        kind: 'key',
        doc: {
          keyId: d.keyId, tenantId: e.tenantId, name: d.name, scopes: d.scopes, hash: d.hash, prefix: d.prefix,
          createdAt: e.occurredAt, createdBy: d.createdBy, revokedAt: null,
        },
      }];
    }
    case 'key.revoked':
      return [{ kind: 'key-revoked', tenantId: e.tenantId, keyId: e.data.keyId, revokedAt: e.occurredAt }];
    default: {
      const exhaustive: never = e;
      return exhaustive;
    }
  }
}
