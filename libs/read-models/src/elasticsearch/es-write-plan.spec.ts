import { encodeEvent, envelope, upcast } from '@cds/events';
import { DecisionDoc } from '../documents';
import { toDocWrites } from '../projection';
import { ProjectedEvent } from '../read-models.port';
import { V1 } from '../sqlite/encoded-events.fixtures';
import { docId } from './es-index-layout';
import { fromEsDecision, planWrites, refKey, refsToRead, StoredDoc, toEsDecision } from './es-write-plan';

const at = (offset: number, event: ProjectedEvent['event'], partition = 0): ProjectedEvent => ({ topic: 'deliveries', partition, offset, event });
const scheduled = (deliveryId: string, dueAt = '2026-01-01T00:00:10.000Z') =>
  envelope('webhook.delivery.scheduled', 1, 't1', deliveryId, {
    deliveryId,
    webhookId: 'w1',
    target: { kind: 'webhook' as const, webhookId: 'w1' },
    eventId: `evt-${deliveryId}`,
    eventType: 'decision.created',
    payload: { id: `evt-${deliveryId}` },
    dueAt,
  });
const attempted = (deliveryId: string, attempt: number, test = false) =>
  envelope('webhook.delivery.attempted', 1, 't1', deliveryId, {
    deliveryId,
    webhookId: 'w1',
    eventId: `evt-${deliveryId}`,
    eventType: 'decision.created',
    attempt,
    status: 'failed' as const,
    url: 'https://example.com',
    responseCode: 503,
    durationMs: 5,
    error: 'receiver answered 503',
    nextAttemptAt: '2026-01-01T00:01:00.000Z',
    test,
  });
const d1 = refKey('deliveries', docId('t1', 'd1'));

describe('planWrites', () => {
  it('reads only the documents the batch patches', () => {
    expect(refsToRead([at(0, scheduled('d1')), at(1, attempted('d1', 1)), at(2, scheduled('d2'))])).toEqual([{ type: 'deliveries', id: docId('t1', 'd1') }]);
  });

  it('folds a creation and its patches of one batch into one write, versioned by the last offset', () => {
    const writes = planWrites([at(4, scheduled('d1')), at(5, attempted('d1', 1)), at(6, attempted('d1', 2))], new Map());
    const delivery = writes.find((w) => w.type === 'deliveries');
    expect(delivery).toMatchObject({ op: 'index', id: docId('t1', 'd1'), version: 7, doc: { state: 'pending', attempts: 2, eventId: 'evt-d1' } });
    expect(writes.filter((w) => w.type === 'delivery_attempts').map((w) => [w.op, w.id, (w.doc as { pos: number }).pos])).toEqual([
      ['create', docId('t1', 'd1', '1'), 5],
      ['create', docId('t1', 'd1', '2'), 6],
    ]);
  });

  it('keeps the stored document over a creation replayed in the batch, and patches it only with newer events', () => {
    const stored = new Map<string, StoredDoc>([
      [d1, { doc: { deliveryId: 'd1', tenantId: 't1', state: 'pending', attempts: 1, createdAt: 'first' }, version: 6 }],
    ]);
    // Offsets 4 and 5 are applied already (version 6): nothing to write for the delivery.
    expect(planWrites([at(4, scheduled('d1')), at(5, attempted('d1', 1))], stored).filter((w) => w.type === 'deliveries')).toEqual([]);
    const [write] = planWrites([at(4, scheduled('d1')), at(9, attempted('d1', 2))], stored).filter((w) => w.type === 'deliveries');
    expect(write).toMatchObject({ op: 'index', version: 10, doc: { attempts: 2, createdAt: 'first' } });
  });

  it('patches no document that is not there (a test delivery has only its attempt)', () => {
    const writes = planWrites([at(3, attempted('test-1', 1, true)), at(4, attempted('d9', 1))], new Map());
    expect(writes.map((w) => [w.op, w.type])).toEqual([
      ['create', 'delivery_attempts'],
      ['create', 'delivery_attempts'],
    ]);
  });
});

describe('toEsDecision / fromEsDecision', () => {
  /** A check's decision as the projector lifts it from the log: its one part holds the decision's own objects. */
  const lifted = () => upcast(JSON.parse(encodeEvent(envelope('decision.created', 1, 't1', 'd1', V1))));
  const docOf = (event: ProjectedEvent['event']): DecisionDoc => {
    const [write] = toDocWrites(event);
    if (write?.kind !== 'decision') throw new Error('not a decision');
    return write.doc;
  };

  it('indexes a one-part decision with its part once, and reads it back whole, to its JSON', () => {
    const doc = docOf(lifted());
    const source = JSON.parse(JSON.stringify(toEsDecision(doc, 7, 0)));
    expect(source.parts[0]).not.toHaveProperty('signals');
    expect(source.parts[0]).not.toHaveProperty('categories');
    expect(source).toMatchObject({ signals: doc.signals, categories: doc.categories, triggeredCategories: [], userId: 'u1', pos: 7, partition: 0 });
    expect(JSON.stringify(fromEsDecision(source))).toBe(JSON.stringify(doc));
  });

  it('indexes whole, and reads as it is, a decision whose part holds other values', () => {
    const doc = docOf(lifted());
    const other = { ...doc, parts: [{ ...doc.parts[0], action: 'block' as const }] };
    const source = JSON.parse(JSON.stringify(toEsDecision(other, 7, 0)));
    expect(source.parts).toEqual(other.parts);
    expect(fromEsDecision(source)).toEqual(other);
  });
});
