import { DecisionDoc, GuardrailPolicyVersionDoc, KeyDoc, PolicyDoc } from '../documents';
import { toDocWrites } from '../projection';
import { ProjectedEvent } from '../read-models.port';
import { docId, DocType } from './es-index-layout';

/**
 * How a batch of events becomes Elasticsearch writes, without painless scripts:
 * - documents written once (decisions, keys, guardrail decisions and policy versions)
 *   use `create`: the first event wins and a replay gets a 409, as INSERT OR IGNORE does;
 * - documents an event replaces or patches (policies, key revocations) are written whole
 *   with external versioning, version = log offset + 1, so ES itself refuses an older or
 *   replayed event (409). This is sound because every event touching one document has the
 *   same key (the aggregate id), hence the same partition, where offsets are ordered.
 * The whole-document writes start from the stored document (read first, see `refsToRead`)
 * or from an earlier write of the same batch.
 */
export type PlannedWrite = { op: 'create'; type: DocType; id: string; doc: object } | { op: 'index'; type: DocType; id: string; version: number; doc: object };

export interface DocRef {
  type: DocType;
  id: string;
}

export const refKey = (type: DocType, id: string) => `${type}/${id}`;

/** The stored documents `planWrites` needs: those a batch upserts or patches. */
export function refsToRead(batch: ProjectedEvent[]): DocRef[] {
  const refs = new Map<string, DocRef>();
  for (const e of batch) {
    for (const w of toDocWrites(e.event)) {
      const ref: DocRef | null =
        w.kind === 'policy'
          ? { type: 'policies', id: docId(w.doc.tenantId, w.doc.policyId) }
          : w.kind === 'key-revoked'
            ? { type: 'keys', id: docId(w.tenantId, w.keyId) }
            : null;
      if (ref) refs.set(refKey(ref.type, ref.id), ref);
    }
  }
  return [...refs.values()];
}

/** The writes of a batch, one per document (the last state it reaches in the batch). */
export function planWrites(batch: ProjectedEvent[], stored: Map<string, object>): PlannedWrite[] {
  const planned = new Map<string, PlannedWrite>();
  const current = (type: DocType, id: string) => planned.get(refKey(type, id))?.doc ?? stored.get(refKey(type, id)) ?? null;
  const createOnce = (type: DocType, id: string, doc: object) => {
    if (!planned.has(refKey(type, id))) planned.set(refKey(type, id), { op: 'create', type, id, doc });
  };
  const replace = (type: DocType, id: string, version: number, doc: object) => {
    const prev = planned.get(refKey(type, id));
    if (prev?.op === 'index' && prev.version >= version) return;
    planned.set(refKey(type, id), { op: 'index', type, id, version, doc });
  };

  for (const e of batch) {
    for (const w of toDocWrites(e.event)) {
      const version = e.offset + 1;
      switch (w.kind) {
        case 'decision':
          createOnce('decisions', docId(w.doc.tenantId, w.doc.decisionId), toEsDecision(w.doc, e.offset, e.partition));
          break;
        case 'policy': {
          const id = docId(w.doc.tenantId, w.doc.policyId);
          const prev = current('policies', id) as PolicyDoc | null;
          replace('policies', id, version, { ...w.doc, createdAt: prev?.createdAt ?? w.doc.createdAt });
          break;
        }
        case 'key':
          createOnce('keys', docId(w.doc.tenantId, w.doc.keyId), w.doc);
          break;
        case 'key-revoked': {
          const id = docId(w.tenantId, w.keyId);
          const prev = current('keys', id) as KeyDoc | null;
          if (prev) replace('keys', id, version, { ...prev, revokedAt: w.revokedAt });
          break;
        }
        case 'guardrail-decision':
          createOnce('guardrail_decisions', docId(w.doc.tenantId, w.doc.decisionId), w.doc);
          break;
        case 'guardrail-policy-version':
          createOnce('guardrail_policy_versions', docId(w.doc.tenantId, w.doc.projectId, w.doc.version), {
            ...w.doc,
            pos: e.offset,
            partition: e.partition,
          } satisfies EsGuardrailPolicyVersion);
          break;
        default: {
          const exhaustive: never = w;
          return exhaustive;
        }
      }
    }
  }
  return [...planned.values()];
}

/** A decision as indexed: the document plus the fields the audit filters search. */
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
    ...doc,
    userId: typeof u === 'string' || typeof u === 'number' ? String(u) : null,
    triggeredCategories: doc.categories.filter((c) => c.triggered).map((c) => c.category),
    pos: offset,
    partition,
  };
}

export function fromEsDecision(source: EsDecision): DecisionDoc {
  const { userId: _u, triggeredCategories: _t, pos: _p, partition: _n, ...doc } = source;
  return doc;
}

export function fromEsGuardrailPolicyVersion(source: EsGuardrailPolicyVersion): GuardrailPolicyVersionDoc {
  const { pos: _p, partition: _n, ...doc } = source;
  return doc;
}
