import { DeliveryDoc } from '@cds/read-models';
import { PendingDelivery } from './delivery-queue';
import { PendingReloader, PendingSource, ReloadClock, ReloadSettings } from './pending-reloader';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const HOUR = 3_600_000;

const doc = (id: string, dueAt: number, attempts = 0): DeliveryDoc => ({
  deliveryId: id,
  tenantId: 't1',
  webhookId: 'w1',
  target: { kind: 'webhook', webhookId: 'w1' },
  eventId: `evt-${id}`,
  eventType: 'decision.created',
  payload: { id: `evt-${id}` },
  state: 'pending',
  attempts,
  nextAttemptAt: new Date(dueAt).toISOString(),
  lastError: null,
  createdAt: new Date(T0).toISOString(),
  updatedAt: new Date(T0).toISOString(),
});

/** Pending deliveries as the read models page them: (due time, id) order, after a cursor. */
class FakeSource implements PendingSource {
  reads: (string | null)[] = [];
  failures: Error[] = [];
  onCaughtUp: () => void = () => undefined;
  constructor(public docs: DeliveryDoc[]) {}
  async caughtUp(): Promise<void> {
    this.onCaughtUp();
  }
  async page(limit: number, after: DeliveryDoc | null): Promise<DeliveryDoc[]> {
    const failure = this.failures.shift();
    if (failure) throw failure;
    this.reads.push(after?.deliveryId ?? null);
    const key = (d: DeliveryDoc) => `${d.nextAttemptAt}|${d.deliveryId}`;
    return [...this.docs]
      .sort((a, b) => (key(a) < key(b) ? -1 : 1))
      .filter((d) => !after || key(d) > key(after))
      .slice(0, limit);
  }
}

/** A queue that holds what it is given until the test lets it go. */
class FakeQueue {
  readonly held = new Map<string, PendingDelivery>();
  readonly added: PendingDelivery[] = [];
  get size() {
    return this.held.size;
  }
  has(id: string) {
    return this.held.has(id);
  }
  add(d: PendingDelivery) {
    this.held.set(d.deliveryId, d);
    this.added.push(d);
  }
}

class FakeClock implements ReloadClock {
  now = () => this.t;
  private timers: { at: number; run: () => void }[] = [];
  constructor(private t: number) {}
  setTimeout(run: () => void, ms: number) {
    const timer = { at: this.t + ms, run };
    this.timers.push(timer);
    return timer;
  }
  clearTimeout(timer: unknown) {
    this.timers = this.timers.filter((x) => x !== timer);
  }
  async advanceTo(t: number) {
    this.t = t;
    for (const timer of this.timers.filter((x) => x.at <= t)) {
      this.clearTimeout(timer);
      timer.run();
    }
    await settle();
  }
}

const settle = () => new Promise((r) => setImmediate(r));
const quiet = { log: () => undefined, warn: () => undefined };

function setup(docs: DeliveryDoc[], over: Partial<ReloadSettings> = {}) {
  const source = new FakeSource(docs);
  const queue = new FakeQueue();
  const clock = new FakeClock(T0);
  const settings: ReloadSettings = { pageSize: 3, maxHeld: 1_000, horizonMs: 60_000, retryMs: 2_000, ...over };
  const reloader = new PendingReloader(source, queue, settings, quiet, clock);
  return { source, queue, clock, reloader };
}

describe('PendingReloader', () => {
  it('resumes every pending delivery once, page after page in due order, far beyond one page', async () => {
    const docs = Array.from({ length: 25 }, (_, i) => doc(`d${String(i).padStart(2, '0')}`, T0 - 1000 + (i % 4)));
    const { source, queue, reloader } = setup(docs);
    await reloader.fill();
    expect(queue.added.map((d) => d.deliveryId).sort()).toEqual(docs.map((d) => d.deliveryId).sort());
    expect(queue.added.map((d) => d.dueAt)).toEqual([...queue.added.map((d) => d.dueAt)].sort());
    expect(source.reads).toHaveLength(9); // 8 full pages and a short one
    expect(source.reads.slice(1)).toEqual(source.reads.slice(1).map((_, i) => queue.added[3 * (i + 1) - 1].deliveryId));
    expect(reloader.done).toBe(true);
    expect(queue.added[0]).toMatchObject({ deliveryId: 'd00', attempts: 0, dueAt: T0 - 1000, tenantId: 't1', target: { kind: 'webhook', webhookId: 'w1' } });
  });

  it('holds at most maxHeld: the next page is read as deliveries leave the queue', async () => {
    const docs = Array.from({ length: 10 }, (_, i) => doc(`d${i}`, T0));
    const { queue, reloader } = setup(docs, { maxHeld: 6 });
    await reloader.fill();
    expect(queue.size).toBe(6);
    for (const id of ['d0', 'd1']) {
      queue.held.delete(id);
      reloader.deliveryLeft(id);
    }
    await settle();
    expect(queue.size).toBe(4); // a page does not fit yet
    queue.held.delete('d2');
    reloader.deliveryLeft('d2');
    await settle();
    expect(queue.size).toBe(6);
    expect(reloader.done).toBe(false);
    for (const id of [...queue.held.keys()]) {
      queue.held.delete(id);
      reloader.deliveryLeft(id);
    }
    await reloader.fill();
    expect(new Set(queue.added.map((d) => d.deliveryId)).size).toBe(10);
    expect(reloader.done).toBe(true);
  });

  it('reads deliveries due later only when their time comes near', async () => {
    const docs = [
      ...['a1', 'a2', 'a3'].map((id) => doc(id, T0 + 10_000)),
      ...['b1', 'b2', 'b3'].map((id) => doc(id, T0 + 2 * HOUR, 4)),
      ...['c1', 'c2'].map((id) => doc(id, T0 + 3 * HOUR, 5)),
    ];
    const { queue, clock, reloader } = setup(docs);
    await reloader.fill();
    // The page that reaches past the horizon is kept; the next one waits.
    expect(queue.added.map((d) => d.deliveryId)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3']);
    await clock.advanceTo(T0 + 2 * HOUR - 60_001);
    expect(queue.added).toHaveLength(6);
    await clock.advanceTo(T0 + 2 * HOUR - 60_000);
    expect(queue.added.map((d) => [d.deliveryId, d.attempts])).toEqual([
      ['a1', 0],
      ['a2', 0],
      ['a3', 0],
      ['b1', 4],
      ['b2', 4],
      ['b3', 4],
      ['c1', 5],
      ['c2', 5],
    ]);
    expect(reloader.done).toBe(true);
  });

  it('does not bring back what is queued, nor what left the queue while the page was read', async () => {
    const docs = ['d1', 'd2', 'd3', 'd4', 'd5'].map((id) => doc(id, T0));
    const { source, queue, reloader } = setup(docs, { pageSize: 10 });
    queue.held.set('d1', { deliveryId: 'd1' } as PendingDelivery); // queued already (e.g. retried since)
    // d2 finishes (and leaves) while the page is being read, which still shows it pending.
    source.onCaughtUp = () => reloader.deliveryLeft('d2');
    await reloader.fill();
    expect(queue.added.map((d) => d.deliveryId)).toEqual(['d3', 'd4', 'd5']);
  });

  it('reads again after retryMs when a read fails, and stops on stop()', async () => {
    const docs = ['d1', 'd2'].map((id) => doc(id, T0));
    const { source, queue, clock, reloader } = setup(docs);
    source.failures.push(new Error('read models away'));
    await reloader.fill();
    expect(queue.added).toEqual([]);
    await clock.advanceTo(T0 + 1_999);
    expect(queue.added).toEqual([]);
    await clock.advanceTo(T0 + 2_000);
    expect(queue.added.map((d) => d.deliveryId)).toEqual(['d1', 'd2']);

    const stopped = setup(docs);
    stopped.source.failures.push(new Error('away'));
    await stopped.reloader.fill();
    stopped.reloader.stop();
    await stopped.clock.advanceTo(T0 + 10_000);
    expect(stopped.queue.added).toEqual([]);
  });
});
