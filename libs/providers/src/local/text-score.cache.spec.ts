import { TextScoreCache, scoringForm, textScoreKey } from './text-score.cache';

describe('scoringForm', () => {
  it('trims white space and composes to NFC; nothing else changes', () => {
    expect(scoringForm('  see you tomorrow \n')).toBe('see you tomorrow');
    expect(scoringForm('cafe\u0301')).toBe('caf\u00e9');
    expect(scoringForm('two  spaces\nand a line')).toBe('two  spaces\nand a line');
    expect(scoringForm('Straße')).toBe('Straße');
  });
});

describe('textScoreKey', () => {
  it('differs by model, language and text, and keeps long texts to a fixed size', () => {
    const keys = [textScoreKey('m1', 'en', 'hello'), textScoreKey('m2', 'en', 'hello'), textScoreKey('m1', 'de', 'hello'), textScoreKey('m1', 'en', 'hello!')];
    expect(new Set(keys).size).toBe(4);
    const long = 'x'.repeat(100_000);
    expect(textScoreKey('m1', 'en', long).length).toBeLessThan(80);
    expect(textScoreKey('m1', 'en', long)).not.toBe(textScoreKey('m1', 'en', long + 'y'));
    // a short text that looks like a digest is still not a long text's key
    const digestKey = textScoreKey('m1', 'en', long).split('\0')[2];
    expect(textScoreKey('m1', 'en', digestKey.slice(1))).not.toBe(textScoreKey('m1', 'en', long));
  });
});

describe('TextScoreCache', () => {
  const deferred = <T>() => {
    let resolve!: (v: T) => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
    return { promise, resolve, reject };
  };

  it('computes a text once, and answers it again from memory', async () => {
    const cache = new TextScoreCache<number>(10);
    const compute = jest.fn(async () => 42);
    expect(await cache.get('a', compute)).toBe(42);
    expect(await cache.get('a', compute)).toBe(42);
    expect(compute).toHaveBeenCalledTimes(1);
    expect(cache.stats()).toEqual({ entries: 1, hits: 1, misses: 1, joined: 0 });
  });

  it('a burst of one text while its first score is computed costs one computation', async () => {
    const cache = new TextScoreCache<number>(10);
    const d = deferred<number>();
    const compute = jest.fn(() => d.promise);
    const answers = Array.from({ length: 50 }, () => cache.get('spam', compute));
    d.resolve(7);
    expect(await Promise.all(answers)).toEqual(Array(50).fill(7));
    expect(compute).toHaveBeenCalledTimes(1);
    expect(cache.stats()).toMatchObject({ misses: 1, joined: 49, hits: 0 });
  });

  it('keeps no failure: the waiters see it, the next ask computes again', async () => {
    const cache = new TextScoreCache<number>(10);
    const d = deferred<number>();
    const first = cache.get('a', () => d.promise);
    const joined = cache.get('a', () => Promise.resolve(0));
    d.reject(new Error('queue full'));
    await expect(first).rejects.toThrow('queue full');
    await expect(joined).rejects.toThrow('queue full');
    expect(await cache.get('a', async () => 5)).toBe(5);
    expect(cache.stats().entries).toBe(1);
  });

  it('holds at most maxEntries, the least recently used leaving first', async () => {
    const cache = new TextScoreCache<string>(2);
    await cache.get('a', async () => 'A');
    await cache.get('b', async () => 'B');
    await cache.get('a', async () => 'not again');
    await cache.get('c', async () => 'C'); // b is the least recently used
    expect(cache.stats().entries).toBe(2);
    expect(await cache.get('a', async () => 'A2')).toBe('A');
    expect(await cache.get('b', async () => 'B2')).toBe('B2');
  });

  it('with 0 entries, computes every time', async () => {
    const cache = new TextScoreCache<number>(0);
    const compute = jest.fn(async () => 1);
    await cache.get('a', compute);
    await cache.get('a', compute);
    expect(compute).toHaveBeenCalledTimes(2);
    expect(cache.enabled).toBe(false);
  });
});
