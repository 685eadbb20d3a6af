import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import koffi from 'koffi';
import { LocalTextClassifier } from '@cds/providers';
import { locateE5Model } from '../libs/providers/src/local-embedding/e5-model-files';
import { parseEmbeddingHeads } from '../libs/providers/src/local-embedding/embedding-heads';
import { LocalEmbeddingScorer, defaultHeadsPath } from '../libs/providers/src/local-embedding/local-embedding.scorer';
import { loadCorpus } from '../scripts/train-text/corpus/corpus';
import { ROOT, machine, writeResult } from './bench-support';

/**
 * npm run bench:text — the local text scorers on this machine, on held-out tweet-sized
 * texts (≤ 280 characters, test split of the moderation datasets):
 *   1. the n-gram model (the baseline), one text at a time on the event loop;
 *   2. the embedding scorer, one text at a time (1 in flight), 1 worker and N workers;
 *   3. the embedding scorer under load: C texts in flight, N workers, dynamic batching;
 *   4. the same with the cascade (the n-gram model clears text it is sure is clean);
 *   5. the engine alone on this thread: e5.c's own forward pass (the baseline) against the
 *      project's panel kernels (engine/e5_fast.c), same library, same texts, 1 and 16 per call;
 *      and the panel kernels running only the heads' encoder layers when the heads read a
 *      truncated model (EmbeddingHeadsFile.model.layers);
 *   6. the default configuration (cascade and early exits, model/embedding-exit.json) loaded:
 *      texts/s, p50/p99, and the share of chunks that left at each layer;
 *   7. batch sizes: the panel kernels' CPU time a text at 1 to 64 texts a call (one thread),
 *      and the pool loaded with batches of at most 4 to 32 texts (BatchLimits.maxBatch).
 * p50/p99 are per text, from submission to answer; texts/s over the whole run.
 * Env: BENCH_TEXTS (default 400), BENCH_CONCURRENCY (default 64), TEXT_WORKERS (default: cores),
 * TEXT_HEADS (a heads file to bench instead of the committed model/embedding-heads.json).
 * Needs `npm run models:fetch`.
 */
const N = Number(process.env.BENCH_TEXTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const WORKERS = Number(process.env.TEXT_WORKERS ?? Math.max(1, os.availableParallelism()));
const HEADS = process.env.TEXT_HEADS ? path.resolve(process.env.TEXT_HEADS) : defaultHeadsPath();

interface Figures {
  p50: number;
  p99: number;
  perSecond: number;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(3);
};

/** Keeps `inFlight` calls running until `n` are done. */
async function run(n: number, inFlight: number, f: (i: number) => Promise<unknown>): Promise<Figures> {
  const times: number[] = [];
  let next = 0;
  const start = performance.now();
  const lane = async () => {
    while (next < n) {
      const i = next++;
      const t = performance.now();
      await f(i);
      times.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, n) }, lane));
  return { p50: pct(times, 50), p99: pct(times, 99), perSecond: +((n * 1000) / (performance.now() - start)).toFixed(1) };
}

/** ms per text of one engine's batch function over `texts`, `perCall` texts per call. */
function engineMsPerText(prefix: 'e5' | 'e5f', texts: string[], perCall: number, layers?: number): number {
  const files = locateE5Model();
  const lib = koffi.load(files.libraryPath);
  const load = lib.func(`void *${prefix}_load(const char *path)`);
  const embed = lib.func(`int ${prefix}_embed_batch(void *m, const char **texts, int n, int is_query, float *out)`);
  const free = lib.func(`void ${prefix}_free(void *m)`);
  const model: unknown = load(files.weightsPath);
  try {
    if (layers !== undefined && lib.func('int e5f_truncate(void *m, int n)')(model, layers) !== layers) throw new Error(`cannot run ${layers} layers`);
    const out = new Float32Array(perCall * 384);
    for (let i = 0; i < 8; i++) embed(model, [texts[i]], 1, 1, out);
    const start = performance.now();
    for (let i = 0; i < texts.length; i += perCall) {
      const batch = texts.slice(i, i + perCall);
      if (embed(model, batch, batch.length, 1, out) !== 0) throw new Error(`${prefix}_embed_batch failed`);
    }
    return +((performance.now() - start) / texts.length).toFixed(2);
  } finally {
    free(model);
  }
}

/** CPU ms a text of the panel kernels on this thread, `perCall` texts a call (process CPU
 * time: steadier than the wall clock on a shared machine). */
function engineCpuMs(texts: string[], perCall: number): number {
  const files = locateE5Model();
  const lib = koffi.load(files.libraryPath);
  const model: unknown = lib.func('void *e5f_load(const char *path)')(files.weightsPath);
  const embed = lib.func('int e5f_embed_batch(void *m, const char **texts, int n, int is_query, float *out)');
  try {
    const out = new Float32Array(perCall * 384);
    embed(model, texts.slice(0, perCall), Math.min(perCall, texts.length), 1, out);
    const before = process.cpuUsage();
    for (let i = 0; i < texts.length; i += perCall) {
      const batch = texts.slice(i, i + perCall);
      if (embed(model, batch, batch.length, 1, out) !== 0) throw new Error('e5f_embed_batch failed');
    }
    const used = process.cpuUsage(before);
    return +((used.user + used.system) / 1000 / texts.length).toFixed(2);
  } finally {
    lib.func('void e5f_free(void *m)')(model);
  }
}

async function main() {
  const corpus = loadCorpus(path.join(ROOT, '../shared/data/moderation'));
  const tweets = corpus.examples.filter((e) => e.split === 'test' && e.text.length <= 280);
  // a fixed, spread-out sample: every k-th tweet of the test split (all datasets and languages)
  const step = Math.max(1, Math.floor(tweets.length / N));
  const texts = Array.from({ length: N }, (_, i) => tweets[(i * step) % tweets.length]);
  const meanChars = texts.reduce((a, t) => a + t.text.length, 0) / texts.length;

  const heads = parseEmbeddingHeads(JSON.parse(readFileSync(HEADS, 'utf8')));
  const ngram = LocalTextClassifier.load();
  for (let i = 0; i < 2000; i++) ngram.score(texts[i % N].text, texts[i % N].lang);
  const ngramFigures = await run(N * 20, 1, (i) => Promise.resolve(ngram.score(texts[i % N].text, texts[i % N].lang)));

  const one = LocalEmbeddingScorer.start({ headsPath: HEADS, workers: 1, ngram, cascade: false, log: () => undefined });
  await one.ready();
  await run(20, 1, (i) => one.score(texts[i].text, texts[i].lang));
  const single1 = await run(N, 1, (i) => one.score(texts[i].text, texts[i].lang));
  await one.close();

  const pool = LocalEmbeddingScorer.start({ headsPath: HEADS, workers: WORKERS, ngram, cascade: false, log: () => undefined });
  await pool.ready();
  await run(40, WORKERS, (i) => pool.score(texts[i].text, texts[i].lang));
  const singleN = await run(N, 1, (i) => pool.score(texts[i].text, texts[i].lang));
  const loaded = await run(N, CONCURRENCY, (i) => pool.score(texts[i].text, texts[i].lang));
  await pool.close();

  const cascade = LocalEmbeddingScorer.start({ headsPath: HEADS, workers: WORKERS, ngram, earlyExit: false, log: () => undefined });
  await cascade.ready();
  await run(40, WORKERS, (i) => cascade.score(texts[i].text, texts[i].lang));
  const before = cascade.stats();
  const cascadeSingle = await run(N, 1, (i) => cascade.score(texts[i].text, texts[i].lang));
  const cascadeLoaded = await run(N, CONCURRENCY, (i) => cascade.score(texts[i].text, texts[i].lang));
  const after = cascade.stats();
  const clearedShare = (after.cleared - before.cleared) / (after.cleared - before.cleared + after.embedded - before.embedded);
  await cascade.close();

  // 6. the default configuration: cascade and early exits
  const fast = LocalEmbeddingScorer.start({ headsPath: HEADS, workers: WORKERS, ngram, log: () => undefined });
  await fast.ready();
  await run(40, WORKERS, (i) => fast.score(texts[i].text, texts[i].lang));
  const fastBefore = fast.stats();
  const fastSingle = await run(N, 1, (i) => fast.score(texts[i].text, texts[i].lang));
  const fastLoaded = await run(N, CONCURRENCY, (i) => fast.score(texts[i].text, texts[i].lang));
  const fastAfter = fast.stats();
  const exitsOn = fast.exit !== null;
  await fast.close();
  const leftAt = Object.fromEntries(Object.entries(fastAfter.leftAt).map(([layer, n]) => [layer, n - (fastBefore.leftAt[Number(layer)] ?? 0)]));
  const chunksEmbedded = Object.values(leftAt).reduce((a, b) => a + b, 0);
  const cleared = fastAfter.cleared - fastBefore.cleared;

  // 7. batch sizes
  const batchTexts = texts.slice(0, Math.min(N, 128)).map((t) => t.text);
  const engineCpuMsPerText = Object.fromEntries([1, 2, 4, 8, 16, 32, 64].map((b) => [b, engineCpuMs(batchTexts, b)]));
  const pooled: Record<number, Figures> = {};
  for (const maxBatch of [4, 8, 16, 32]) {
    const p = LocalEmbeddingScorer.start({
      headsPath: HEADS,
      workers: WORKERS,
      ngram,
      cascade: false,
      earlyExit: false,
      batch: { maxBatch },
      log: () => undefined,
    });
    await p.ready();
    await run(40, WORKERS, (i) => p.score(texts[i].text, texts[i].lang));
    pooled[maxBatch] = await run(N, CONCURRENCY, (i) => p.score(texts[i].text, texts[i].lang));
    await p.close();
  }

  const engineTexts = texts.slice(0, Math.min(N, 160)).map((t) => t.text);
  const engine = {
    texts: engineTexts.length,
    referenceMsPerText: { batch1: engineMsPerText('e5', engineTexts, 1), batch16: engineMsPerText('e5', engineTexts, 16) },
    panelsMsPerText: { batch1: engineMsPerText('e5f', engineTexts, 1), batch16: engineMsPerText('e5f', engineTexts, 16) },
    layers: heads.model.layers ?? 'all',
    ...(heads.model.layers === undefined
      ? {}
      : {
          panelsHeadsLayersMsPerText: {
            batch1: engineMsPerText('e5f', engineTexts, 1, heads.model.layers),
            batch16: engineMsPerText('e5f', engineTexts, 16, heads.model.layers),
          },
        }),
  };

  const result = {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverage: os.loadavg().map((x) => +x.toFixed(2)),
    texts: { count: N, meanChars: +meanChars.toFixed(1), source: 'test split, ≤ 280 characters, every k-th' },
    heads: path.relative(ROOT, HEADS),
    workers: WORKERS,
    concurrency: CONCURRENCY,
    ngram: { ...ngramFigures, note: 'one text at a time on the calling thread (ms)' },
    embedding: {
      oneInFlight1Worker: single1,
      oneInFlightNWorkers: singleN,
      loadedNWorkers: loaded,
    },
    engine: { ...engine, note: "one thread, the engine's batch call: e5.c's forward pass (baseline) vs engine/e5_fast.c" },
    cascade: { clearedShare: +clearedShare.toFixed(3), oneInFlight: cascadeSingle, loaded: cascadeLoaded },
    defaultConfiguration: {
      note: 'cascade and early exits (model/embedding-exit.json), as the service runs by default',
      earlyExit: exitsOn,
      clearedShare: +(cleared / Math.max(1, cleared + fastAfter.embedded - fastBefore.embedded)).toFixed(3),
      chunksLeftAt: leftAt,
      exitShareByLayer: Object.fromEntries(Object.entries(leftAt).map(([l, n]) => [l, +(n / Math.max(1, chunksEmbedded)).toFixed(3)])),
      oneInFlight: fastSingle,
      loaded: fastLoaded,
    },
    batches: {
      note: 'CPU ms a text (this thread, panel kernels, 128 texts) by texts a call; and the pool loaded by BatchLimits.maxBatch (cascade and exits off)',
      engineCpuMsPerText,
      poolLoadedByMaxBatch: pooled,
    },
    ratios: {
      latencyP50EmbeddingOverNgram: +(single1.p50 / ngramFigures.p50).toFixed(0),
      ngramThroughputOverEmbeddingLoaded: +(ngramFigures.perSecond / loaded.perSecond).toFixed(1),
      engineSpeedupBatch1: +(engine.referenceMsPerText.batch1 / engine.panelsMsPerText.batch1).toFixed(2),
      engineSpeedupBatch16: +(engine.referenceMsPerText.batch16 / engine.panelsMsPerText.batch16).toFixed(2),
      ngramThroughputOverCascadeLoaded: +(ngramFigures.perSecond / cascadeLoaded.perSecond).toFixed(1),
      defaultOverCascadeLoaded: +(fastLoaded.perSecond / cascadeLoaded.perSecond).toFixed(2),
    },
    targets: { p50MsPerTweet: 10, textsPerSecond: 200 },
  };
  const file = writeResult('text', result);
  process.stdout.write(JSON.stringify(result, null, 2) + `\nwrote ${file}\n`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
