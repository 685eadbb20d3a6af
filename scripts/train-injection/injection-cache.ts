/**
 * Disk cache of the pooled outputs of several encoder layers per text, filled by one
 * forward pass per batch (EmbeddingPool.embedLayers): .tmp/injection-cache/<weights>-L<a>_<b>…/
 * holds keys.txt (sha1 per text) and vectors.f32 (layers × 384 floats per text).
 */
import { createHash } from 'crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { EmbeddingPool } from '../../libs/providers/src/local-embedding/embedding-pool';
import { PROJECT_ROOT } from '../train-text/cli-options';

export const DIM = 384;
const keyOf = (t: string) => createHash('sha1').update(t).digest('hex');

export class LayerCache {
  private readonly rows = new Map<string, number>();
  private chunks: Float32Array[] = [];
  private readonly dir: string;

  constructor(
    weightsSha256: string,
    readonly layers: readonly number[],
  ) {
    this.dir = join(PROJECT_ROOT, '.tmp', 'injection-cache', `e5q4-${weightsSha256.slice(0, 12)}-L${layers.join('_')}`);
    mkdirSync(this.dir, { recursive: true });
    const keysPath = join(this.dir, 'keys.txt');
    const vecPath = join(this.dir, 'vectors.f32');
    if (!existsSync(keysPath) || !existsSync(vecPath)) return;
    const keys = readFileSync(keysPath, 'utf8').split('\n').filter(Boolean);
    const buf = readFileSync(vecPath);
    const per = DIM * layers.length;
    const n = Math.min(keys.length, Math.floor(buf.length / (per * 4)));
    const all = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + n * per * 4));
    this.chunks = [all];
    for (let i = 0; i < n; i++) this.rows.set(keys[i], i);
  }

  /** The embedding of `text` at `layer` (one of this cache's layers). */
  get(text: string, layer: number): Float32Array | undefined {
    const r = this.rows.get(keyOf(text));
    const j = this.layers.indexOf(layer);
    if (r === undefined || j < 0) return undefined;
    const per = DIM * this.layers.length;
    let base = 0;
    for (const c of this.chunks) {
      const n = c.length / per;
      if (r < base + n) return c.subarray((r - base) * per + j * DIM, (r - base) * per + (j + 1) * DIM);
      base += n;
    }
    return undefined;
  }

  async fill(texts: string[], pool: EmbeddingPool, log: (m: string) => void, inFlight = 32): Promise<void> {
    const todo = [...new Set(texts)].filter((t) => !this.rows.has(keyOf(t)));
    log(`embedding ${todo.length} new texts (${this.rows.size} cached), layers ${this.layers.join(', ')}`);
    const t0 = Date.now();
    let last = t0;
    for (let i = 0; i < todo.length; i += inFlight) {
      const part = todo.slice(i, i + inFlight);
      const vecs = await Promise.all(part.map((t) => pool.embedLayers(t, this.layers)));
      const out = new Float32Array(part.length * DIM * this.layers.length);
      vecs.forEach((v, k) => v.forEach((x, j) => out.set(x, (k * this.layers.length + j) * DIM)));
      const start = this.rows.size;
      part.forEach((t, k) => this.rows.set(keyOf(t), start + k));
      this.chunks.push(out);
      appendFileSync(join(this.dir, 'vectors.f32'), Buffer.from(out.buffer));
      appendFileSync(join(this.dir, 'keys.txt'), part.map(keyOf).join('\n') + '\n');
      if (Date.now() - last > 30_000 || i + inFlight >= todo.length) {
        last = Date.now();
        const done = Math.min(todo.length, i + inFlight);
        log(`  ${done}/${todo.length} (${(done / ((Date.now() - t0) / 1000)).toFixed(1)} texts/s)`);
      }
    }
  }
}
