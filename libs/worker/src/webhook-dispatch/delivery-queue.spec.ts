import { DeliveryQueue, PendingDelivery } from './delivery-queue';

const pending = (id: string, dueAt: number, attempts = 0): PendingDelivery => ({
  deliveryId: id, tenantId: 't', webhookId: 'w', target: { kind: 'webhook', webhookId: 'w' }, eventId: `e-${id}`, eventType: 'decision.created',
  payload: {}, attempts, dueAt,
});

describe('DeliveryQueue', () => {
  it('runs due deliveries at most `concurrency` at a time and retries what the attempt hands back', async () => {
    let running = 0;
    let peak = 0;
    const runs: string[] = [];
    let finish!: () => void;
    const allDone = new Promise<void>((r) => (finish = r));
    const queue = new DeliveryQueue(async (d) => {
      running++;
      peak = Math.max(peak, running);
      runs.push(`${d.deliveryId}#${d.attempts}`);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (runs.length === 6) finish();
      // d1 fails once and is retried shortly after
      return d.deliveryId === 'd1' && d.attempts === 0 ? { ...d, attempts: 1, dueAt: Date.now() + 20 } : null;
    }, 2, () => undefined);
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
    const queue = new DeliveryQueue(async () => (ran(Date.now()), null), 4, () => undefined);
    const at = Date.now() + 80;
    queue.add(pending('later', at));
    expect(queue.has('later')).toBe(true);
    expect(await started).toBeGreaterThanOrEqual(at);
    await queue.stop();
  });

  it('tries again an attempt that threw (not recorded) instead of losing it', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    let done!: () => void;
    const second = new Promise<void>((r) => (done = r));
    const queue = new DeliveryQueue(async () => {
      calls++;
      if (calls === 1) throw new Error('log away');
      done();
      return null;
    }, 1, (_d, err) => errors.push(err));
    queue.add(pending('x', Date.now()));
    await second;
    await queue.stop();
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
  });
});
