import { LogEnds } from './consistent-reads';
import { LogVersionedCache } from './log-versioned-cache';

/** `inMemory`: a log that tells its end at once (the file log); otherwise one that is asked (Kafka). */
function setup(inMemory: boolean) {
  let end = 3;
  let asked = 0;
  const endOffsets = async () => (asked++, new Map([[0, end]]));
  const ends = new LogEnds(inMemory ? { endOffsets, endOffsetsNow: () => new Map([[0, end]]) } : { endOffsets }, 1000);
  const store = new Map<string, string>([['k1', 'live']]);
  let loads = 0;
  const load = (k: string) => async () => (loads++, store.get(k) ?? null);
  return {
    cache: new LogVersionedCache<string>(ends, 'keys', { maxEntries: 2 }),
    misses: new LogVersionedCache<string>(ends, 'keys', { keepMisses: true }),
    load,
    store,
    append: () => (end += 1),
    loads: () => loads,
    asked: () => asked,
  };
}

describe.each([
  ['a log asked for its end', false],
  ['a log that keeps its end in memory', true],
])('LogVersionedCache over %s', (_name, inMemory) => {
  it('serves a value again without loading while the topic does not move', async () => {
    const t = setup(inMemory);
    await expect(t.cache.get('k1', t.load('k1'))).resolves.toBe('live');
    await expect(t.cache.get('k1', t.load('k1'))).resolves.toBe('live');
    expect(t.loads()).toBe(1);
  });

  it('loads again after any append to the topic (a revocation is seen at once)', async () => {
    const t = setup(inMemory);
    await t.cache.get('k1', t.load('k1'));
    t.store.set('k1', 'revoked');
    t.append();
    await expect(t.cache.get('k1', t.load('k1'))).resolves.toBe('revoked');
    expect(t.loads()).toBe(2);
  });

  it('keeps no unknown key: each is looked up', async () => {
    const t = setup(inMemory);
    await expect(t.cache.get('nope', t.load('nope'))).resolves.toBeNull();
    await expect(t.cache.get('nope', t.load('nope'))).resolves.toBeNull();
    expect(t.loads()).toBe(2);
  });

  it('keeps a miss when asked to, until the topic moves', async () => {
    const t = setup(inMemory);
    await expect(t.misses.get('later', t.load('later'))).resolves.toBeNull();
    await expect(t.misses.get('later', t.load('later'))).resolves.toBeNull();
    expect(t.loads()).toBe(1);
    t.store.set('later', 'saved');
    t.append();
    await expect(t.misses.get('later', t.load('later'))).resolves.toBe('saved');
  });

  it('holds at most maxEntries values', async () => {
    const t = setup(inMemory);
    for (const k of ['a', 'b', 'c']) t.store.set(k, k);
    for (const k of ['a', 'b', 'c']) await t.cache.get(k, t.load(k));
    // 'c' cleared the two before it
    await t.cache.get('a', t.load('a'));
    expect(t.loads()).toBe(4);
  });

  it('asks the log for its end only when it cannot tell it at once', async () => {
    const t = setup(inMemory);
    await t.cache.get('k1', t.load('k1'));
    await t.cache.get('k1', t.load('k1'));
    expect(t.asked()).toBe(inMemory ? 0 : 2);
  });

  it('loads when the log cannot tell its end', async () => {
    const away = () => Promise.reject(new Error('away'));
    const closed = () => {
      throw new Error('event log is closed');
    };
    const cache = new LogVersionedCache<string>(new LogEnds(inMemory ? { endOffsets: away, endOffsetsNow: closed } : { endOffsets: away }, 50), 'keys');
    let loads = 0;
    const load = async () => (loads++, 'v');
    await cache.get('k', load);
    await cache.get('k', load);
    expect(loads).toBe(2);
  });
});
