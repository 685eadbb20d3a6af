import { AttemptOutcome, deferralDelay, DeliveryQueue, DeliveryQueueEvents, PendingDelivery } from './delivery-queue';

const pending = (id: string, dueAt: number, attempts = 0): PendingDelivery => ({
  deliveryId: id,
  tenantId: 't',
  webhookId: 'w',
  target: { kind: 'webhook', webhookId: 'w' },
  eventId: `e-${id}`,
  eventType: 'decision.created',
  payload: {},
  attempts,
  dueAt,
});

const DONE: AttemptOutcome = { kind: 'done' };
const quiet: DeliveryQueueEvents = { deferred: () => undefined };

describe('DeliveryQueue', () => {
  afterEach(() => jest.useRealTimers());

  it('runs due deliveries at most `concurrency` at a time and retries what the attempt hands back', async () => {
    let running = 0;
    let peak = 0;
    const runs: string[] = [];
    let finish!: () => void;
    const allDone = new Promise<void>((r) => (finish = r));
    const queue = new DeliveryQueue(
      async (d): Promise<AttemptOutcome> => {
        running++;
        peak = Math.max(peak, running);
        runs.push(`${d.deliveryId}#${d.attempts}`);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        if (runs.length === 6) finish();
        // d1 fails once and is retried shortly after
        return d.deliveryId === 'd1' && d.attempts === 0 ? { kind: 'retry', next: { ...d, attempts: 1, dueAt: Date.now() + 20 } } : DONE;
      },
      2,
      quiet,
    );
    for (const id of ['d1', 'd2', 'd3', 'd4', 'd5']) queue.add(pending(id, Date.now()));
    queue.add(pending('d1', Date.now())); // already queued: ignored
    await allDone;
    await queue.stop();
    expect(peak).toBe(2);
    expect(runs.slice(0, 5).sort()).toEqual(['d1#0', 'd2#0', 'd3#0', 'd4#0', 'd5#0']);
    expect(runs[5]).toBe('d1#1');
  });

  it('waits for a delivery that is not due yet', async () => {
    let ran!: (at: number) => void;
    const started = new Promise<number>((r) => (ran = r));
    const queue = new DeliveryQueue(async () => (ran(Date.now()), DONE), 4, quiet);
    const at = Date.now() + 80;
    queue.add(pending('later', at));
    expect(queue.has('later')).toBe(true);
    expect(await started).toBeGreaterThanOrEqual(at);
    await queue.stop();
  });

  it('puts off an attempt that recorded nothing (retry-later, or a throw): the same attempt again, backing off', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const runs: { attempts: number; deferrals: number | undefined; at: number }[] = [];
    const deferred: [string, number][] = [];
    const queue = new DeliveryQueue(
      async (d): Promise<AttemptOutcome> => {
        runs.push({ attempts: d.attempts, deferrals: d.deferrals, at: Date.now() });
        if (runs.length === 1) return { kind: 'retry-later', reason: 'read models away' };
        if (runs.length === 2) throw new Error('log away');
        return DONE;
      },
      1,
      { deferred: (_d, reason, wait) => deferred.push([reason, wait]) },
    );
    queue.add(pending('x', Date.now(), 3));
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(999);
    expect(runs).toHaveLength(1); // not before its backoff
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(runs).toEqual([
      { attempts: 3, deferrals: undefined, at: 1_000_000 },
      { attempts: 3, deferrals: 1, at: 1_001_000 },
      { attempts: 3, deferrals: 2, at: 1_003_000 },
    ]);
    expect(deferred).toEqual([
      ['read models away', 1_000],
      ['log away', 2_000],
    ]);
    expect(queue.has('x')).toBe(false);
    await queue.stop();
  });

  it('says when a delivery leaves for good (done), not when it stays for a retry', async () => {
    const left: string[] = [];
    let finish!: () => void;
    const finished = new Promise<void>((r) => (finish = r));
    const queue = new DeliveryQueue(
      async (d): Promise<AttemptOutcome> => {
        if (d.deliveryId === 'b' && d.attempts === 0) return { kind: 'retry', next: { ...d, attempts: 1, dueAt: Date.now() } };
        if (d.deliveryId === 'b') setImmediate(finish);
        return DONE;
      },
      4,
      { deferred: () => undefined, left: (id) => left.push(id) },
    );
    queue.add(pending('a', Date.now()));
    queue.add(pending('b', Date.now()));
    await finished;
    await queue.stop();
    expect(left.sort()).toEqual(['a', 'b']);
  });

  it('backs off 1 s, 2 s, 4 s… up to a minute', () => {
    expect([0, 1, 2, 3, 5, 6, 7, 40].map(deferralDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 32_000, 60_000, 60_000, 60_000]);
  });
});
