import { compactDecision, expandDecision } from '@cds/events';
import { DecisionDoc, DeliveryAttemptDoc, GuardrailPolicyVersionDoc, KeyDoc, PolicyDoc } from '../documents';
import { DocWrite, toDocWrites } from '../projection';
import { ProjectedEvent } from '../read-models.port';
import { docId, DocType } from './es-index-layout';

/**
 * How a batch of events becomes Elasticsearch writes, without painless scripts:
 * - documents written once (decisions, keys, guardrail decisions and policy versions,
 *   webhooks, deliveries, delivery attempts, batches) use `create`: the first event wins
 *   and a replay gets a 409, as INSERT OR IGNORE does;
 * - documents an event replaces or patches (policies, key revocations, webhook, delivery
 *   and batch patches) are written whole with external versioning, version = log offset
 *   + 1, so the node itself refuses an older or replayed event (409) even from a writer
 *   whose plan read a stale document. This is sound because every event touching one
 *   document has the same key (the aggregate id), hence the same partition, where
 *   offsets are ordered: a webhook's events are keyed by webhookId on `webhooks` (the
 *   api's create/update/delete, the dispatcher's auto-disable), a delivery's by
 *   deliveryId on `deliveries` (scheduled by the fan-out, attempted and cancelled by the
 *   attempter), a batch's by batchId on `jobs` (accepted by the api, completed/failed by
 *   the runner). A document created with `create` has version 1; its patches come after
 *   its creation in the same partition, so their versions (offset + 1 >= 2) are above it.
 * The whole-document writes start from the stored document (read first with realtime
 * mget, see `refsToRead`) or from an earlier write of the same batch.
 */
export type PlannedWrite = { op: 'create'; type: DocType; id: string; doc: object } | { op: 'index'; type: DocType; id: string; version: number; doc: object };

export interface DocRef {
  type: DocType;
  id: string;
}

/** A stored document and its version, as `refsToRead` finds it. */
export interface StoredDoc {
  doc: object;
  version: number;
}

export const refKey = (type: DocType, id: string) => `${type}/${id}`;

/** The document a write lands on. */
function targetOf(w: DocWrite): DocRef {
  switch (w.kind) {
    case 'decision':
      return { type: 'decisions', id: docId(w.doc.tenantId, w.doc.decisionId) };
    case 'policy':
      return { type: 'policies', id: docId(w.doc.tenantId, w.doc.policyId) };
    case 'key':
      return { type: 'keys', id: docId(w.doc.tenantId, w.doc.keyId) };
    case 'key-revoked':
      return { type: 'keys', id: docId(w.tenantId, w.keyId) };
    case 'guardrail-decision':
      return { type: 'guardrail_decisions', id: docId(w.doc.tenantId, w.doc.decisionId) };
    case 'guardrail-policy-version':
      return { type: 'guardrail_policy_versions', id: docId(w.doc.tenantId, w.doc.projectId, w.doc.version) };
    case 'webhook':
      return { type: 'webhooks', id: docId(w.doc.tenantId, w.doc.webhookId) };
    case 'webhook-patch':
      return { type: 'webhooks', id: docId(w.tenantId, w.webhookId) };
    case 'delivery':
      return { type: 'deliveries', id: docId(w.doc.tenantId, w.doc.deliveryId) };
    case 'delivery-patch':
      return { type: 'deliveries', id: docId(w.tenantId, w.deliveryId) };
    case 'delivery-attempt':
      return { type: 'delivery_attempts', id: docId(w.doc.tenantId, w.doc.deliveryId, String(w.doc.attempt)) };
    case 'batch':
      return { type: 'batches', id: docId(w.doc.tenantId, w.doc.batchId) };
    case 'batch-patch':
      return { type: 'batches', id: docId(w.tenantId, w.batchId) };
    default: {
      const exhaustive: never = w;
      return exhaustive;
    }
  }
}

/** Writes that start from the stored document: upserts and patches. */
const readsStored = (w: DocWrite) =>
  w.kind === 'policy' || w.kind === 'key-revoked' || w.kind === 'webhook-patch' || w.kind === 'delivery-patch' || w.kind === 'batch-patch';

/** Creations that a stored document wins over (insert-if-absent, read to skip the 409). */
const createsIfAbsent = (w: DocWrite) => w.kind === 'webhook' || w.kind === 'delivery' || w.kind === 'batch';

/** The stored documents `planWrites` needs: those a batch upserts or patches. */
export function refsToRead(batch: ProjectedEvent[]): DocRef[] {
  const refs = new Map<string, DocRef>();
  for (const e of batch) {
    for (const w of toDocWrites(e.event)) {
      if (!readsStored(w)) continue;
      const t = targetOf(w);
      refs.set(refKey(t.type, t.id), t);
    }
  }
  return [...refs.values()];
}

/** The writes of a batch, one per document (the last state it reaches in the batch).
 * `stored` holds the documents of `refsToRead` that exist, with their versions. */
export function planWrites(batch: ProjectedEvent[], stored: Map<string, StoredDoc>): PlannedWrite[] {
  const planned = new Map<string, PlannedWrite>();
  // The document as the batch leaves it so far: an earlier replace or patch, the stored
  // one, or an earlier creation (version 1 until patched).
  const current = (k: string): StoredDoc | null => {
    const p = planned.get(k);
    if (p?.op === 'index') return { doc: p.doc, version: p.version };
    return stored.get(k) ?? (p ? { doc: p.doc, version: 1 } : null);
  };
  const createOnce = (k: string, t: DocRef, doc: object) => {
    if (!planned.has(k)) planned.set(k, { op: 'create', ...t, doc });
  };
  const replace = (k: string, t: DocRef, version: number, doc: object) => {
    const prev = planned.get(k);
    if (prev?.op === 'index' && prev.version >= version) return;
    planned.set(k, { op: 'index', ...t, version, doc });
  };

  for (const e of batch) {
    for (const w of toDocWrites(e.event)) {
      const t = targetOf(w);
      const k = refKey(t.type, t.id);
      const version = e.offset + 1;
      switch (w.kind) {
        case 'decision':
          createOnce(k, t, toEsDecision(w.doc, e.offset, e.partition));
          break;
        case 'key':
        case 'guardrail-decision':
          createOnce(k, t, w.doc);
          break;
        case 'guardrail-policy-version':
          createOnce(k, t, { ...w.doc, pos: e.offset, partition: e.partition } satisfies EsGuardrailPolicyVersion);
          break;
        case 'delivery-attempt':
          createOnce(k, t, { ...w.doc, pos: e.offset, partition: e.partition } satisfies EsDeliveryAttempt);
          break;
        case 'webhook':
        case 'delivery':
        case 'batch':
          if (!stored.has(k)) createOnce(k, t, w.doc);
          break;
        case 'policy': {
          const prev = current(k)?.doc as PolicyDoc | undefined;
          replace(k, t, version, { ...w.doc, createdAt: prev?.createdAt ?? w.doc.createdAt });
          break;
        }
        case 'key-revoked': {
          const prev = current(k)?.doc as KeyDoc | undefined;
          if (prev) replace(k, t, version, { ...prev, revokedAt: w.revokedAt });
          break;
        }
        case 'webhook-patch':
        case 'delivery-patch':
        case 'batch-patch': {
          const cur = current(k);
          // Absent: nothing to patch (a test delivery has no delivery document). Not newer:
          // applied already; skipped here, and refused by the node should the read be stale.
          if (!cur || cur.version >= version) break;
          planned.set(k, { op: 'index', ...t, version, doc: { ...cur.doc, ...w.patch } });
          break;
        }
        default: {
          const exhaustive: never = w;
          return exhaustive;
        }
      }
    }
  }
  return [...planned.values()];
}

/** A decision as indexed: the document plus the fields the audit filters search. Its one
 * part is kept once, as on the log (`compactDecision`): the source is a third smaller for
 * a check of one text, and `fromEsDecision` reads it back whole. */
export interface EsDecision extends DecisionDoc {
  userId: string | null;
  triggeredCategories: string[];
  pos: number;
  partition: number;
}

export interface EsGuardrailPolicyVersion extends GuardrailPolicyVersionDoc {
  pos: number;
  partition: number;
}

export function toEsDecision(doc: DecisionDoc, offset: number, partition: number): EsDecision {
  const u = doc.metadata?.userId;
  return {
    ...compactDecision(doc),
    userId: typeof u === 'string' || typeof u === 'number' ? String(u) : null,
    triggeredCategories: doc.categories.filter((c) => c.triggered).map((c) => c.category),
    pos: offset,
    partition,
  };
}

export function fromEsDecision(source: EsDecision): DecisionDoc {
  const { userId: _u, triggeredCategories: _t, pos: _p, partition: _n, ...doc } = source;
  return expandDecision(doc);
}

/** A delivery attempt as indexed: the document plus its log position (newest-first ties). */
export interface EsDeliveryAttempt extends DeliveryAttemptDoc {
  pos: number;
  partition: number;
}

export function fromEsDeliveryAttempt(source: EsDeliveryAttempt): DeliveryAttemptDoc {
  const { pos: _p, partition: _n, ...doc } = source;
  return doc;
}

export function fromEsGuardrailPolicyVersion(source: EsGuardrailPolicyVersion): GuardrailPolicyVersionDoc {
  const { pos: _p, partition: _n, ...doc } = source;
  return doc;
}
