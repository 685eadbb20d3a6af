import { ProviderCache, providerCacheKey } from './provider-cache';

describe('ProviderCache', () => {
  it('answers within the TTL and forgets after it', () => {
    let now = 1000;
    const cache = new ProviderCache(60_000, 10, () => now);
    cache.set('k', { signals: { hate: 0.9 }, cost: 0.001 });
    expect(cache.get('k')).toEqual({ signals: { hate: 0.9 }, cost: 0.001 });
    now += 60_000;
    expect(cache.get('k')).toBeUndefined();
  });

  it('keeps at most maxEntries, the least recently used out first', () => {
    const cache = new ProviderCache(60_000, 2);
    cache.set('a', { signals: {}, cost: 0 });
    cache.set('b', { signals: {}, cost: 0 });
    cache.get('a');
    cache.set('c', { signals: {}, cost: 0 });
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map(Boolean)).toEqual([true, false, true]);
  });

  it('is off with a TTL of 0', () => {
    const cache = new ProviderCache(0, 10);
    cache.set('a', { signals: {}, cost: 0 });
    expect(cache.enabled).toBe(false);
    expect(cache.get('a')).toBeUndefined();
  });

  it('keys by provider, model, modality, language and content', () => {
    const t = (text: string, language = 'en') => ({ modality: 'text' as const, text, language });
    const k = providerCacheKey('openai', 'm1', t('hello'));
    expect(providerCacheKey('openai', 'm1', t('hello'))).toBe(k);
    expect(
      new Set([
        k,
        providerCacheKey('openai', 'm2', t('hello')),
        providerCacheKey('azure', 'm1', t('hello')),
        providerCacheKey('openai', 'm1', t('hello', 'de')),
        providerCacheKey('openai', 'm1', t('hallo')),
      ]).size,
    ).toBe(5);
    expect(k).not.toContain('hello');
  });
});

describe('ProviderCache single flight', () => {
  it('keeps the call out for a key until it settles, answer or failure', async () => {
    const cache = new ProviderCache(60_000, 10);
    let answer!: (v: { signals: Record<string, number>; cost: number }) => void;
    const call = new Promise<{ signals: Record<string, number>; cost: number }>((resolve) => (answer = resolve));
    cache.fly('k', call);
    expect(cache.inFlight('k')).toBe(call);
    expect(cache.inFlight('other')).toBeUndefined();
    answer({ signals: { hate: 0.1 }, cost: 0 });
    await call;
    await Promise.resolve();
    expect(cache.inFlight('k')).toBeUndefined();

    const failing = Promise.reject(new Error('provider down'));
    failing.catch(() => undefined);
    cache.fly('k', failing);
    await failing.catch(() => undefined);
    await Promise.resolve();
    expect(cache.flying).toBe(0);
  });

  it('flies nothing when the cache is off (PROVIDER_CACHE_TTL=0)', () => {
    const cache = new ProviderCache(0, 10);
    cache.fly('k', Promise.resolve({ signals: {}, cost: 0 }));
    expect(cache.inFlight('k')).toBeUndefined();
  });
});
