import { LogEnds } from './consistent-reads';
import { LogVersionedCache } from './log-versioned-cache';

function setup() {
  let end = 3;
  const ends = new LogEnds({ endOffsets: async () => new Map([[0, end]]) }, 1000);
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
  };
}

describe('LogVersionedCache', () => {
  it('serves a value again without loading while the topic does not move', async () => {
    const t = setup();
    await expect(t.cache.get('k1', t.load('k1'))).resolves.toBe('live');
    await expect(t.cache.get('k1', t.load('k1'))).resolves.toBe('live');
    expect(t.loads()).toBe(1);
  });

  it('loads again after any append to the topic (a revocation is seen at once)', async () => {
    const t = setup();
    await t.cache.get('k1', t.load('k1'));
    t.store.set('k1', 'revoked');
    t.append();
    await expect(t.cache.get('k1', t.load('k1'))).resolves.toBe('revoked');
    expect(t.loads()).toBe(2);
  });

  it('keeps no unknown key: each is looked up', async () => {
    const t = setup();
    await expect(t.cache.get('nope', t.load('nope'))).resolves.toBeNull();
    await expect(t.cache.get('nope', t.load('nope'))).resolves.toBeNull();
    expect(t.loads()).toBe(2);
  });

  it('keeps a miss when asked to, until the topic moves', async () => {
    const t = setup();
    await expect(t.misses.get('later', t.load('later'))).resolves.toBeNull();
    await expect(t.misses.get('later', t.load('later'))).resolves.toBeNull();
    expect(t.loads()).toBe(1);
    t.store.set('later', 'saved');
    t.append();
    await expect(t.misses.get('later', t.load('later'))).resolves.toBe('saved');
  });

  it('holds at most maxEntries values', async () => {
    const t = setup();
    for (const k of ['a', 'b', 'c']) t.store.set(k, k);
    for (const k of ['a', 'b', 'c']) await t.cache.get(k, t.load(k));
    // 'c' cleared the two before it
    await t.cache.get('a', t.load('a'));
    expect(t.loads()).toBe(4);
  });

  it('loads when the log cannot tell its end', async () => {
    const cache = new LogVersionedCache<string>(new LogEnds({ endOffsets: () => Promise.reject(new Error('away')) }, 50), 'keys');
    let loads = 0;
    const load = async () => (loads++, 'v');
    await cache.get('k', load);
    await cache.get('k', load);
    expect(loads).toBe(2);
  });
});
