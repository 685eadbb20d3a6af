import { DomainError } from '@cds/errors';
import { ReadModels } from '../read-models.port';
import { DeferredReadModels } from './deferred-read-models';

function opening() {
  let resolve!: (rm: ReadModels) => void;
  const promise = new Promise<ReadModels>((r) => (resolve = r));
  return { promise, resolve };
}

const fakeReal = (calls: string[]): ReadModels =>
  ({
    healthy: async () => true,
    close: async () => void calls.push('close'),
    generation: () => 'g7',
    getDecision: async (tenantId: string, id: string) => {
      calls.push(`getDecision ${tenantId} ${id}`);
      return { decisionId: id } as never;
    },
  }) as unknown as ReadModels;

describe('DeferredReadModels', () => {
  it('reports not healthy and answers 503 READ_MODELS_UNAVAILABLE while the node is away', async () => {
    const o = opening();
    const rm = new DeferredReadModels(o.promise, { waitMs: 20, describe: 'Elasticsearch at http://x', abort: () => undefined });
    expect(await rm.healthy()).toBe(false);
    const err = await rm.getDecision('t1', 'd1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: 'READ_MODELS_UNAVAILABLE', kind: 'unavailable' });
    expect(() => rm.generation()).toThrow(DomainError);
  });

  it('is not a thenable, so a Nest factory can return it before the node is up', () => {
    const rm = new DeferredReadModels(opening().promise, { waitMs: 20, describe: 'x', abort: () => undefined });
    expect((rm as unknown as { then?: unknown }).then).toBeUndefined();
  });

  it('has no Nest lifecycle hooks or other unknown members while the node is away', () => {
    const rm = new DeferredReadModels(opening().promise, { waitMs: 20, describe: 'x', abort: () => undefined }) as unknown as Record<string, unknown>;
    for (const hook of ['onModuleInit', 'onApplicationBootstrap', 'onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown']) {
      expect(rm[hook]).toBeUndefined();
    }
    expect(typeof rm.getWebhook).toBe('function');
  });

  it('a call waiting when the node comes up is served by it; later calls go straight through', async () => {
    const o = opening();
    const calls: string[] = [];
    const rm = new DeferredReadModels(o.promise, { waitMs: 5_000, describe: 'x', abort: () => undefined });
    const waiting = rm.getDecision('t1', 'd1');
    o.resolve(fakeReal(calls));
    await expect(waiting).resolves.toEqual({ decisionId: 'd1' });
    await new Promise((r) => setImmediate(r));
    expect(await rm.healthy()).toBe(true);
    expect(rm.generation()).toBe('g7');
    await rm.getDecision('t2', 'd2');
    expect(calls).toEqual(['getDecision t1 d1', 'getDecision t2 d2']);
  });

  it('close abandons the opening, and closes the adapter if it opens afterwards', async () => {
    const o = opening();
    const calls: string[] = [];
    let aborted = false;
    const rm = new DeferredReadModels(o.promise, { waitMs: 20, describe: 'x', abort: () => (aborted = true) });
    await rm.close();
    expect(aborted).toBe(true);
    o.resolve(fakeReal(calls));
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual(['close']);
  });
});
