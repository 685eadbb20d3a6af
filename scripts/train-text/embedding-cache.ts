/**
 * Disk cache of text embeddings for training and evaluation: .tmp/embedding-cache/<weights>/
 * holds `keys.txt` (sha1 of each embedded string, one a line) and `vectors.f32` (the
 * matching rows, appended in the same order). Reruns only embed what is new.
 */
import { createHash } from 'crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'fs';
import { join } from 'path';
import { EmbeddingPool } from '../../libs/providers/src/local-embedding/embedding-pool';
import { PROJECT_ROOT } from './cli-options';

export const EMBEDDING_DIM = 384;

export class EmbeddingCache {
  private readonly rows = new Map<string, number>();
  private vectors: Float32Array;
  private size = 0;
  /** what the files held when read (alignFiles) */
  private onDisk: { keys: number; bytes: number } | null = null;
  private readonly keysPath: string;
  private readonly vectorsPath: string;

  /** `layers`: the embeddings are the pooled output of the model's first `layers` encoder
   * layers (undefined: all of them). */
  constructor(
    readonly dir: string,
    readonly layers?: number,
    /** fine-tuned layers the embeddings were computed with (EmbeddingHeadsFile.model.overlay) */
    readonly overlayPath?: string,
  ) {
    mkdirSync(dir, { recursive: true });
    this.keysPath = join(dir, 'keys.txt');
    this.vectorsPath = join(dir, 'vectors.f32');
    const keys = existsSync(this.keysPath) ? readFileSync(this.keysPath, 'utf8').split('\n').filter(Boolean) : [];
    const buf = existsSync(this.vectorsPath) ? readFileSync(this.vectorsPath) : Buffer.alloc(0);
    const n = Math.min(keys.length, Math.floor(buf.length / (EMBEDDING_DIM * 4)));
    this.vectors = new Float32Array(Math.max(1024, n * 2) * EMBEDDING_DIM);
    this.vectors.set(new Float32Array(buf.buffer, buf.byteOffset, n * EMBEDDING_DIM));
    for (let i = 0; i < n; i++) this.rows.set(keys[i], i);
    this.size = n;
    this.onDisk = { keys: keys.length, bytes: buf.length };
  }

  /** Before the first append: a run killed between its two appends leaves the files out of
   * step, so both are cut to the rows they share. Only a writer does this, so a process
   * that only reads the cache never changes the files another one is appending to. */
  private alignFiles(): void {
    if (!this.onDisk) return;
    const { keys, bytes } = this.onDisk;
    this.onDisk = null;
    if (keys !== this.size) {
      const lines = readFileSync(this.keysPath, 'utf8').split('\n').filter(Boolean);
      writeFileSync(
        this.keysPath,
        lines
          .slice(0, this.size)
          .map((k) => `${k}\n`)
          .join(''),
      );
    }
    if (bytes !== this.size * EMBEDDING_DIM * 4) truncateSync(this.vectorsPath, this.size * EMBEDDING_DIM * 4);
  }

  /** The cache of one model's embeddings: its weights, how many of its layers run, and the
   * fine-tuned layers loaded over them. */
  static forWeights(weightsSha256: string, layers?: number, overlay?: { path: string; sha256: string }): EmbeddingCache {
    const name = `e5q4-query-${weightsSha256.slice(0, 12)}${layers === undefined ? '' : `-layers${layers}`}${overlay ? `-ovl${overlay.sha256.slice(0, 12)}` : ''}`;
    return new EmbeddingCache(join(PROJECT_ROOT, '.tmp', 'embedding-cache', name), layers, overlay?.path);
  }

  get count(): number {
    return this.size;
  }

  has(text: string): boolean {
    return this.rows.has(keyOf(text));
  }

  get(text: string): Float32Array | undefined {
    const r = this.rows.get(keyOf(text));
    return r === undefined ? undefined : this.vectors.subarray(r * EMBEDDING_DIM, (r + 1) * EMBEDDING_DIM);
  }

  /** Embeds the texts not cached yet (through the pool, `inFlight` at a time so it forms
   * full batches), appending to disk as it goes. */
  async fill(texts: string[], pool: EmbeddingPool, log: (m: string) => void, inFlight = 64): Promise<void> {
    const todo = [...new Set(texts)].filter((t) => !this.has(t));
    if (todo.length === 0) return;
    log(`embedding ${todo.length} new texts (${this.size} cached)`);
    const t0 = Date.now();
    let lastLog = t0;
    for (let i = 0; i < todo.length; i += inFlight) {
      const part = todo.slice(i, i + inFlight);
      const vecs = await Promise.all(part.map((t) => pool.embed(t)));
      this.put(part, vecs);
      if (Date.now() - lastLog > 30_000 || i + inFlight >= todo.length) {
        lastLog = Date.now();
        const done = Math.min(todo.length, i + inFlight);
        const rate = done / ((Date.now() - t0) / 1000);
        log(`  ${done}/${todo.length} (${rate.toFixed(1)} texts/s, ~${Math.round((todo.length - done) / rate / 60)} min left)`);
      }
    }
  }

  /** Adds embeddings computed elsewhere (texts already cached are not checked: callers add
   * only what `has` says is missing). */
  put(texts: string[], vecs: Float32Array[]): void {
    this.alignFiles();
    const need = (this.size + texts.length) * EMBEDDING_DIM;
    if (need > this.vectors.length) {
      const grown = new Float32Array(Math.max(need, this.vectors.length * 2));
      grown.set(this.vectors.subarray(0, this.size * EMBEDDING_DIM));
      this.vectors = grown;
    }
    const out = new Float32Array(texts.length * EMBEDDING_DIM);
    texts.forEach((t, i) => {
      out.set(vecs[i], i * EMBEDDING_DIM);
      this.vectors.set(vecs[i], (this.size + i) * EMBEDDING_DIM);
      this.rows.set(keyOf(t), this.size + i);
    });
    this.size += texts.length;
    appendFileSync(this.vectorsPath, Buffer.from(out.buffer, out.byteOffset, out.byteLength));
    appendFileSync(this.keysPath, texts.map(keyOf).join('\n') + '\n');
  }
}

function keyOf(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
