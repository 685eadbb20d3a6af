import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EncodedEvent } from '@cds/event-log';
import { GenerationLoad, ReplayFeed } from '../generations.port';
import { SqliteReadModels } from './sqlite-read-models.adapter';
import { SqliteRowDecoders } from './sqlite-row-decoders';

/** Events per decoding job. */
const CHUNK = 1000;

/** Threads that decode beside the writer: two on two cores measured faster than one or
 * three (BENCHMARKS.md); past four, the single writer is the limit. */
function decoderThreads(): number {
  return Math.min(4, Math.max(2, os.availableParallelism()));
}

/**
 * A SQLite generation loaded in bulk (SqliteReadModels.createGeneration: no journal on
 * disk, no fsync, secondary indexes at the end). Decoder threads parse the events and
 * make their rows, several chunks ahead; this thread writes them, in the order handed.
 * Nothing else can write the served generation meanwhile (the service holds the log while
 * it runs), so there is nobody to hand a promotion to: the rebuild promotes itself.
 */
export class SqliteGenerationLoad implements GenerationLoad {
  readonly feed: ReplayFeed;
  /** The last chunk's write: the next one waits for it (and fails with it). */
  private writing: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly rm: SqliteReadModels,
    private readonly dir: string,
    private readonly decoders: SqliteRowDecoders,
  ) {
    // two chunks per thread: one being decoded, one waiting
    this.feed = { chunk: CHUNK, partitionsAtOnce: 1, chunksAhead: 2 * decoders.threads };
  }

  /** A fresh generation of the read models under `dir`. */
  static create(dir: string, threads = decoderThreads()): SqliteGenerationLoad {
    const rm = SqliteReadModels.createGeneration(dir);
    try {
      return new SqliteGenerationLoad(rm, dir, new SqliteRowDecoders(threads));
    } catch (err) {
      void rm.close();
      throw err;
    }
  }

  get generation(): string {
    return this.rm.generation();
  }

  appliedNextOffsets(): Map<string, number> {
    return this.rm.appliedNextOffsets();
  }

  apply(chunk: EncodedEvent[]): Promise<string[]> {
    const decoded = this.decoders.decode(chunk);
    const written = Promise.all([decoded, this.writing]).then(([d]) => {
      this.rm.applyRows(d.rows);
      return d.parked;
    });
    this.writing = written;
    return written;
  }

  async finishLoad(): Promise<void> {
    this.rm.finishBulkLoad();
  }

  async requestPromotion(): Promise<boolean> {
    return false;
  }

  async promotionPending(): Promise<boolean> {
    return false;
  }

  async withdrawPromotion(): Promise<boolean> {
    return true;
  }

  async isServed(): Promise<boolean> {
    return SqliteReadModels.servedGeneration(this.dir) === this.generation;
  }

  async promote(): Promise<void> {
    this.rm.promote();
  }

  async discard(): Promise<void> {
    if (await this.isServed()) return;
    await this.close();
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(path.join(this.dir, `${this.generation}.sqlite${suffix}`), { force: true });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // After a failure, the chunks still out settle unobserved.
    this.writing.catch(() => undefined);
    try {
      await this.decoders.close();
    } finally {
      await this.rm.close();
    }
  }
}
