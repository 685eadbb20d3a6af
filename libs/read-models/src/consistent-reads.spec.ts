import type { LogPosition } from '@cds/event-log';
import type { Topic } from '@cds/events';
import { CoalescedEnds, ConsistentReadModels, LogEnds } from './consistent-reads';
import { PositionWaiters } from './position-waiters';
import type { ReadModels } from './read-models.port';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('CoalescedEnds', () => {
  it('serves every caller that arrived before a request was sent with that one request', async () => {
    let calls = 0;
    const ends = new CoalescedEnds(async () => new Map([[0, ++calls]]));
    const [a, b] = await Promise.all([ends.get(), ends.get()]);
    // the first starts a request at once; the second arrived while it was in flight and joins the next
    expect(a.get(0)).toBe(1);
    expect(b.get(0)).toBe(2);
    expect(calls).toBe(2);
  });

  it('sends at most one request per round trip however many callers wait', async () => {
    const answers: Array<ReturnType<typeof deferred<Map<number, number>>>> = [];
    const ends = new CoalescedEnds(() => {
      const d = deferred<Map<number, number>>();
      answers.push(d);
      return d.promise;
    });
    const first = ends.get();
    const later = Array.from({ length: 20 }, () => ends.get());
    expect(answers).toHaveLength(1);
    answers[0].resolve(new Map([[0, 5]]));
    await first;
    await Promise.resolve();
    await Promise.resolve();
    expect(answers).toHaveLength(2);
    answers[1].resolve(new Map([[0, 9]]));
    const got = await Promise.all(later);
    expect(got.every((m) => m.get(0) === 9)).toBe(true);
  });

  it('a failed request fails its callers and the next caller asks again', async () => {
    let n = 0;
    const ends = new CoalescedEnds(async () => {
      if (++n === 1) throw new Error('broker away');
      return new Map([[0, 3]]);
    });
    await expect(ends.get()).rejects.toThrow('broker away');
    await expect(ends.get()).resolves.toEqual(new Map([[0, 3]]));
  });
});

/** A read model that answers from what was applied, with the real PositionWaiters. */
function fakeReadModels() {
  const waiters = new PositionWaiters();
  const decisions = new Map<string, string>();
  const rm = {
    waitFor: (positions: LogPosition[], ms: number) => waiters.waitFor(positions, ms),
    getDecision: async (_tenant: string, id: string) => decisions.get(id) ?? null,
    applyBatch: async () => undefined,
    healthy: async () => true,
  };
  const apply = (offset: number, id: string) => {
    decisions.set(id, `doc ${id}`);
    waiters.advance('decisions', 0, offset + 1);
  };
  return { rm: rm as unknown as ReadModels, apply };
}

describe('ConsistentReadModels', () => {
  it('a query waits until its topic is projected up to the log end it saw on arrival', async () => {
    const { rm, apply } = fakeReadModels();
    const end = new Map<Topic, number>([['decisions', 1]]);
    const read = new ConsistentReadModels(rm, new LogEnds({ endOffsets: async (t) => new Map([[0, end.get(t) ?? 0]]) }, 1000), { waitMs: 2000 });
    // offset 0 ("d1") is durable on the log but not projected yet
    const pending = read.getDecision('t', 'd1');
    await new Promise((r) => setTimeout(r, 20));
    apply(0, 'd1');
    await expect(pending).resolves.toBe('doc d1');
  });

  it('reads what is projected when the projection does not catch up in time, and says so', async () => {
    const { rm } = fakeReadModels();
    const behind: string[] = [];
    const read = new ConsistentReadModels(rm, new LogEnds({ endOffsets: async () => new Map([[0, 4]]) }, 1000), {
      waitMs: 30,
      onBehind: (topics, reason) => behind.push(`${topics.join()}: ${reason}`),
    });
    await expect(read.getDecision('t', 'd9')).resolves.toBeNull();
    expect(behind).toEqual(["decisions: the projection did not reach the log's end within 30 ms"]);
  });

  it('with the log away, a query reads what is projected after endsTimeoutMs', async () => {
    const { rm, apply } = fakeReadModels();
    apply(0, 'd1');
    const behind: string[] = [];
    const read = new ConsistentReadModels(rm, new LogEnds({ endOffsets: () => new Promise(() => undefined) }, 40), {
      waitMs: 5000,
      onBehind: (_t, r) => behind.push(r),
    });
    await expect(read.getDecision('t', 'd1')).resolves.toBe('doc d1');
    expect(behind[0]).toMatch(/end is unknown/);
  });

  it('does not wrap what is not a query: the projector never waits on itself', async () => {
    const { rm } = fakeReadModels();
    const endOffsets = jest.fn(async () => new Map([[0, 100]]));
    const read = new ConsistentReadModels(rm, new LogEnds({ endOffsets }, 10), { waitMs: 10 });
    await read.applyBatch([]);
    await read.waitFor([], 10);
    await read.healthy();
    expect(endOffsets).not.toHaveBeenCalled();
  });
});
