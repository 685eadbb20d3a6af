import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { ensureDir, writeFileAtomic } from './fs-durable';

/** How long a moved checkpoint may stay in memory only: a consumer that dies resumes
 * at most this far back (every consumer of the log is idempotent by position), and a
 * busy log pays one atomic write (two fsyncs) a second per group, not ten. */
const PERSIST_DELAY_MS = 1000;

/**
 * The checkpoints of one consumer group: per topic, the next offset to deliver (as Kafka
 * commits). Kept in memory, written to `checkpoints/<group>.json` at most once a second
 * and on `flush()`, atomically (temp file, fsync, rename, fsync of the directory).
 */
export class GroupCheckpoints {
  private readonly offsets = new Map<string, number>();
  private dirty = false;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    readonly group: string,
    private readonly dir: string,
    private readonly file: string,
    private readonly logger: { warn(message: string): void },
  ) {}

  static async load(dir: string, group: string, logger: { warn(message: string): void }): Promise<GroupCheckpoints> {
    const store = new GroupCheckpoints(group, dir, path.join(dir, `${encodeURIComponent(group)}.json`), logger);
    let text: string | null = null;
    try {
      text = await readFile(store.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (text !== null) {
      let parsed: { offsets?: Record<string, unknown> };
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw new Error(`checkpoint file ${store.file} is not valid JSON (${(err as Error).message}); fix or remove it`);
      }
      for (const [topic, next] of Object.entries(parsed.offsets ?? {})) {
        if (typeof next === 'number' && Number.isInteger(next) && next >= 0) store.offsets.set(topic, next);
      }
    }
    return store;
  }

  /** Next offset to deliver of `topic`, when the group has one. */
  get(topic: string): number | undefined {
    return this.offsets.get(topic);
  }

  /** Move the checkpoint; persisted within a second. */
  set(topic: string, next: number): void {
    if (this.offsets.get(topic) === next) return;
    this.offsets.set(topic, next);
    this.dirty = true;
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, PERSIST_DELAY_MS);
    this.timer.unref?.();
  }

  /** Persist what has moved. Never rejects: a failure is logged and retried on the next call. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.writing = this.writing.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      const content = JSON.stringify({ group: this.group, offsets: Object.fromEntries(this.offsets) }, null, 2) + '\n';
      try {
        await ensureDir(this.dir);
        await writeFileAtomic(this.file, content);
      } catch (err) {
        this.dirty = true;
        this.logger.warn(`checkpoint of group ${this.group} not persisted: ${(err as Error).message}`);
      }
    });
    return this.writing;
  }
}
