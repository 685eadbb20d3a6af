/**
 * Embeddings of corpus rows, through the disk cache. A row is cut into chunks as the
 * runtime cuts it (text-chunks.ts); training uses the first chunk's embedding, evaluation
 * scores every chunk and takes the max, as the runtime does.
 */
import { chunkText } from '../../libs/providers/src/local-embedding/text-chunks';
import { EmbeddingPool } from '../../libs/providers/src/local-embedding/embedding-pool';
import { CorpusExample } from './corpus/example';
import { EMBEDDING_DIM, EmbeddingCache } from './embedding-cache';

export interface RowEmbeddings {
  /** first-chunk embedding per row: rows × EMBEDDING_DIM */
  first: Float32Array;
  /** every chunk's embedding per row */
  chunks: Float32Array[][];
}

export function chunksOf(e: CorpusExample): string[] {
  return chunkText(e.text);
}

/** Opens the pool only if something is missing: one worker (long jobs use one core) unless
 * TEXT_WORKERS says more. */
export async function ensureEmbedded(examples: CorpusExample[], idx: number[], cache: EmbeddingCache, log: (m: string) => void): Promise<void> {
  const texts = idx.flatMap((i) => chunksOf(examples[i]));
  const missing = texts.filter((t) => !cache.has(t));
  if (missing.length === 0) return;
  const pool = EmbeddingPool.start({
    workers: Math.max(1, Number(process.env.TEXT_WORKERS ?? 1) || 1),
    queueLimit: 1 << 20,
    layers: cache.layers,
    overlayPath: cache.overlayPath,
    log: (level, m) => log(`[${level}] ${m}`),
  });
  try {
    await pool.ready();
    await cache.fill(missing, pool, log);
  } finally {
    await pool.close();
  }
}

export function rowEmbeddings(examples: CorpusExample[], idx: number[], cache: EmbeddingCache): RowEmbeddings {
  const first = new Float32Array(idx.length * EMBEDDING_DIM);
  const chunks: Float32Array[][] = [];
  idx.forEach((i, r) => {
    const vs = chunksOf(examples[i]).map((t) => {
      const v = cache.get(t);
      if (!v) throw new Error(`not embedded: ${t.slice(0, 40)}…`);
      return v;
    });
    first.set(vs[0], r * EMBEDDING_DIM);
    chunks.push(vs);
  });
  return { first, chunks };
}
