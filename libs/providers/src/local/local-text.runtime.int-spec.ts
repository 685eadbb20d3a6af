import { LocalTextRuntime } from './local-text.runtime';

describe('LocalTextRuntime (embedding)', () => {
  it('closed while its model is loading, it logs no failure', async () => {
    const logs: string[] = [];
    const runtime = new LocalTextRuntime({ kind: 'embedding', workers: 1, log: (level, message) => logs.push(`${level}: ${message}`) });
    runtime.start();
    expect(runtime.state).toBe('loading');
    const loading = runtime.ready();
    await runtime.close();
    await expect(loading).rejects.toThrow(/closed/);
    await new Promise((r) => setImmediate(r));
    expect(logs.filter((l) => l.startsWith('error'))).toEqual([]);
    expect(runtime.state).toBe('idle');
  });
});

describe('LocalTextRuntime (embedding): answers kept by content', () => {
  // embedded (the n-gram cascade does not clear it), so each miss costs a forward pass
  const THREAT = 'I am going to kill you and your whole family tonight';
  let cached: LocalTextRuntime;
  let uncached: LocalTextRuntime;
  beforeAll(async () => {
    cached = new LocalTextRuntime({ kind: 'embedding', workers: 1, log: () => undefined });
    uncached = new LocalTextRuntime({ kind: 'embedding', workers: 1, cacheEntries: 0, log: () => undefined });
    await Promise.all([cached.ready(), uncached.ready()]);
  });
  afterAll(async () => {
    await Promise.all([cached?.close(), uncached?.close()]);
  });

  it('scores a burst of one text once, and the same text again (other white space) from memory, with the uncached answer', async () => {
    const burst = await Promise.all(Array.from({ length: 30 }, () => cached.score(THREAT, 'en')));
    const again = await cached.score(`  ${THREAT}\n`, 'en');
    expect(cached.cacheStats()).toEqual({ entries: 1, misses: 1, joined: 29, hits: 1 });
    const reference = await uncached.score(THREAT, 'en');
    for (const answer of [...burst, again]) expect(answer).toEqual(reference);
    expect(reference.signals.violence).toBeGreaterThan(0.7);
    expect(uncached.cacheStats()).toEqual({ entries: 0, misses: 0, joined: 0, hits: 0 });
  });

  it('keeps a text per language (the n-gram model reads the language), and gives every caller its own copy', async () => {
    const [en, de] = await Promise.all([cached.score('have a nice day', 'en'), cached.score('have a nice day', 'de')]);
    expect(cached.cacheStats().entries).toBe(3);
    (en.signals as Record<string, number>).violence = 1;
    expect((await cached.score('have a nice day', 'en')).signals.violence).not.toBe(1);
    expect(de.model).toMatch(/^(ngram|multilingual-e5-small)/);
  });
});
