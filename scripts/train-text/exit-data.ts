/**
 * What the early exits are trained and judged on: corpus rows cut into chunks as the
 * runtime cuts them, each chunk's pooled output at the candidate exit layers and at the
 * full model's last layer (through the disk caches), and the full model's answer.
 */
import { createHash } from 'crypto';
import { EmbeddingPool } from '../../libs/providers/src/local-embedding/embedding-pool';
import { EmbeddingHeadsFile, scoreChunks } from '../../libs/providers/src/local-embedding/embedding-heads';
import { LocalTextClassifier, LocalTextSignal } from '@cds/providers';
import { CorpusExample } from './corpus/example';
import { EMBEDDING_DIM, EmbeddingCache } from './embedding-cache';
import { chunksOf } from './embedding-features';

export interface ExitRows {
  examples: CorpusExample[];
  idx: number[];
  /** per row, its chunks' texts */
  chunks: string[][];
  /** per row, the n-gram model's signals (the cascade, and the signals without a head) */
  ngram: Record<LocalTextSignal, number>[];
}

export function exitRows(examples: CorpusExample[], idx: number[], ngram: LocalTextClassifier): ExitRows {
  return {
    examples,
    idx,
    chunks: idx.map((i) => chunksOf(examples[i])),
    ngram: idx.map((i) => ngram.score(examples[i].text, examples[i].lang) as Record<LocalTextSignal, number>),
  };
}

/** A deterministic share of `idx` (by the text's hash): the exit heads need fewer rows
 * than the full model's heads (they learn one linear map, from the full model's answers). */
export function sampleRows(examples: CorpusExample[], idx: number[], share: number): number[] {
  if (share >= 1) return idx;
  const limit = Math.floor(share * 2 ** 32);
  return idx.filter((i) => createHash('sha1').update(`exit:${examples[i].text}`).digest().readUInt32BE(0) < limit);
}

/**
 * Fills the caches of the candidate layers and the full model's: a text the full model has
 * not embedded yet runs every layer once, pooled at each candidate on the way
 * (EmbeddingPoolOptions.capture); one it has runs only to the deepest candidate.
 */
export async function ensureLayers(
  texts: string[],
  layers: number[],
  caches: Map<number, EmbeddingCache>,
  final: { cache: EmbeddingCache; layers?: number },
  log: (m: string) => void,
): Promise<void> {
  const unique = [...new Set(texts)];
  const needFinal = unique.filter((t) => !final.cache.has(t));
  const needEarly = unique.filter((t) => final.cache.has(t) && layers.some((l) => !caches.get(l)!.has(t)));
  if (needFinal.length > 0) {
    log(`embedding ${needFinal.length} texts with the full model, pooled at ${layers.join(', ')} on the way`);
    await embedInto(needFinal, { layers: final.layers, capture: layers, overlayPath: final.cache.overlayPath }, layers, caches, final.cache, log);
  }
  if (needEarly.length > 0) {
    log(`embedding ${needEarly.length} texts to layer ${Math.max(...layers)}, pooled at ${layers.join(', ')}`);
    await embedInto(needEarly, { layers: Math.max(...layers), capture: layers }, layers, caches, null, log);
  }
}

async function embedInto(
  todo: string[],
  o: { layers?: number; capture: number[]; overlayPath?: string },
  layers: number[],
  caches: Map<number, EmbeddingCache>,
  final: EmbeddingCache | null,
  log: (m: string) => void,
): Promise<void> {
  const pool = EmbeddingPool.start({
    workers: Math.max(1, Number(process.env.TEXT_WORKERS ?? 1) || 1),
    queueLimit: 1 << 20,
    ...o,
    log: (level, m) => log(`[${level}] ${m}`),
  });
  const putMissing = (cache: EmbeddingCache, part: string[], vec: (j: number) => Float32Array) => {
    const missing = part.map((t, j) => [t, j] as const).filter(([t]) => !cache.has(t));
    cache.put(
      missing.map(([t]) => t),
      missing.map(([, j]) => Float32Array.from(vec(j))),
    );
  };
  try {
    await pool.ready();
    const t0 = Date.now();
    let lastLog = t0;
    for (let i = 0; i < todo.length; i += 64) {
      const part = todo.slice(i, i + 64);
      const encoded = await Promise.all(part.map((t) => pool.encode(t)));
      layers.forEach((l, k) => putMissing(caches.get(l)!, part, (j) => encoded[j].captured[k]));
      if (final) putMissing(final, part, (j) => encoded[j].embedding);
      if (Date.now() - lastLog > 30_000 || i + 64 >= todo.length) {
        lastLog = Date.now();
        const done = Math.min(todo.length, i + 64);
        const rate = done / ((Date.now() - t0) / 1000);
        log(`  ${done}/${todo.length} (${rate.toFixed(1)} texts/s, ~${Math.round((todo.length - done) / rate / 60)} min left)`);
      }
    }
  } finally {
    await pool.close();
  }
}

/** Per row, per chunk: the cached embedding of `cache`'s layer. */
export function chunkVectors(rows: ExitRows, cache: EmbeddingCache): Float32Array[][] {
  return rows.chunks.map((cs) =>
    cs.map((t) => {
      const v = cache.get(t);
      if (!v) throw new Error(`not embedded at ${cache.layers ?? 'all'} layers: ${t.slice(0, 40)}…`);
      return v;
    }),
  );
}

/** Per row, per chunk: the full model's calibrated probability of every signal with a head. */
export function finalChunkSignals(heads: EmbeddingHeadsFile['heads'], vectors: Float32Array[][]): Record<LocalTextSignal, number>[][] {
  return vectors.map((cs) => cs.map((v) => scoreChunks(heads, [v])));
}

/** Row-major chunks × EMBEDDING_DIM of every chunk of every row, in order. */
export function stack(vectors: Float32Array[][]): Float32Array {
  const all = vectors.flat();
  const X = new Float32Array(all.length * EMBEDDING_DIM);
  all.forEach((v, i) => X.set(v, i * EMBEDDING_DIM));
  return X;
}
