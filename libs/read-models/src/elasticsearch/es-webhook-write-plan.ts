import { DeliveryAttemptDoc } from '../documents';
import { ProjectedEvent } from '../read-models.port';
import { toWebhookDocWrites, WebhookDocWrite } from '../webhook-projection';
import { docId, DocType } from './es-index-layout';
import { DocRef, PlannedWrite, refKey } from './es-write-plan';

/**
 * How webhook, delivery and batch events become Elasticsearch writes (the counterpart of
 * `planWrites` for `toWebhookDocWrites`), without painless scripts:
 * - creations (webhook, delivery, batch, delivery attempt) use `create`: the first event
 *   wins, a replay gets a 409, as INSERT OR IGNORE does;
 * - every other event patches a document: the planner merges the patch into the current
 *   document (stored, read with realtime mget, or reached earlier in the batch) and writes
 *   it whole with external version = log offset + 1, so the node refuses an older or
 *   replayed patch (409) even from a writer whose plan read a stale document.
 *
 * Offsets order the patches of one document because all its events share a key, hence a
 * partition of one topic: a webhook's events are keyed by webhookId on `webhooks` (the
 * api's create/update/delete, the dispatcher's auto-disable), a delivery's by deliveryId on
 * `deliveries` (scheduled by the fan-out, attempted and cancelled by the attempter), a
 * batch's by batchId on `jobs` (accepted by the api, completed/failed by the runner).
 * A document created with `create` has version 1; its patches come after its creation in
 * the same partition, so their versions (offset + 1 >= 2) are above it.
 */
export interface StoredDoc {
  doc: object;
  version: number;
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

type Target = { type: DocType; id: string };

function targetOf(w: WebhookDocWrite): Target {
  switch (w.kind) {
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

const isPatch = (w: WebhookDocWrite) => w.kind === 'webhook-patch' || w.kind === 'delivery-patch' || w.kind === 'batch-patch';

/** The stored documents `planWebhookWrites` needs: those the batch patches. */
export function webhookRefsToRead(batch: ProjectedEvent[]): DocRef[] {
  const refs = new Map<string, DocRef>();
  for (const e of batch) {
    for (const w of toWebhookDocWrites(e.event)) {
      if (!isPatch(w)) continue;
      const t = targetOf(w);
      refs.set(refKey(t.type, t.id), t);
    }
  }
  return [...refs.values()];
}

/** The writes of a batch, one per document (the last state it reaches in the batch).
 * `stored` holds the documents of `webhookRefsToRead` that exist, with their versions. */
export function planWebhookWrites(batch: ProjectedEvent[], stored: Map<string, StoredDoc>): PlannedWrite[] {
  const planned = new Map<string, PlannedWrite>();
  // Insert-if-absent: a stored document wins over a creation in the batch; a created one
  // has version 1 until patched.
  const current = (k: string): StoredDoc | null => {
    const p = planned.get(k);
    if (p?.op === 'index') return { doc: p.doc, version: p.version };
    return stored.get(k) ?? (p ? { doc: p.doc, version: 1 } : null);
  };

  for (const e of batch) {
    for (const w of toWebhookDocWrites(e.event)) {
      const { type, id } = targetOf(w);
      const k = refKey(type, id);
      switch (w.kind) {
        case 'webhook':
        case 'delivery':
        case 'batch':
          if (!planned.has(k) && !stored.has(k)) planned.set(k, { op: 'create', type, id, doc: w.doc });
          break;
        case 'delivery-attempt':
          if (!planned.has(k)) planned.set(k, { op: 'create', type, id, doc: { ...w.doc, pos: e.offset, partition: e.partition } satisfies EsDeliveryAttempt });
          break;
        case 'webhook-patch':
        case 'delivery-patch':
        case 'batch-patch': {
          const version = e.offset + 1;
          const cur = current(k);
          // Absent: nothing to patch (a test delivery has no delivery document). Not newer:
          // applied already; skipped here, and refused by the node should the read be stale.
          if (!cur || cur.version >= version) break;
          planned.set(k, { op: 'index', type, id, version, doc: { ...cur.doc, ...w.patch } });
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
