import { FileHandle, open, readdir, writeFile } from 'node:fs/promises';
import { encodeRecords } from './record-codec';
import { ensureDir, syncDir, writeFully } from './fs-durable';
import { parseSegmentFileName, RecordReader, Segment } from './segment';
import { TailCache } from './tail-cache';

export interface PartitionLogger {
  warn(message: string): void;
  log(message: string): void;
}

export interface PartitionSettings {
  segmentBytes: number;
  groupCommitMaxWaitMs: number;
  cacheRecords: number;
  cacheChars: number;
}

export interface PartitionRecord {
  offset: number;
  event: unknown;
}

/** A record's payload as text, not yet parsed. */
export interface EncodedRecord {
  offset: number;
  json: string;
}

interface AppendRequest {
  jsons: string[];
  buffer: Buffer;
  sizes: number[];
  resolve(firstOffset: number): void;
  reject(err: Error): void;
}

/** Appends gathered into one write + one fdatasync are capped at this many bytes. */
const MAX_COMMIT_BYTES = 8 * 1024 * 1024;

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Partition 0 of one topic: a directory of segment files, named by their base offset.
 *
 * Group commit: appends queue up; one flush at a time writes everything queued as one
 * write and one fdatasync, then acknowledges those appends together. Appends arriving
 * while an fdatasync is in flight form the next batch. Any write or sync error is
 * fatal for the partition (what reached the disk is unknown after a failed fsync):
 * every later append is refused until the log is reopened, which recovers.
 */
export class PartitionLog {
  private readonly segments: Segment[] = [];
  private active: { segment: Segment; fh: FileHandle; bytes: number } | null = null;
  /** Next offset after the last durable record. */
  private end = 0;
  private cache: TailCache;
  private pending: AppendRequest[] = [];
  private flushing: Promise<void> | null = null;
  private failure: Error | null = null;
  private closed = false;
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly dir: string,
    readonly topic: string,
    private readonly settings: PartitionSettings,
    private readonly logger: PartitionLogger,
  ) {
    this.cache = new TailCache(0, settings.cacheRecords, settings.cacheChars);
  }

  /** Open the partition stored in `dir` (which may not exist yet), recovering its last segment. */
  static async open(dir: string, topic: string, settings: PartitionSettings, logger: PartitionLogger): Promise<PartitionLog> {
    const log = new PartitionLog(dir, topic, settings, logger);
    await log.recover();
    return log;
  }

  /** A partition with nothing on disk yet: its directory is made by the first append. */
  static empty(dir: string, topic: string, settings: PartitionSettings, logger: PartitionLogger): PartitionLog {
    return new PartitionLog(dir, topic, settings, logger);
  }

  /** Next offset to be written (everything below it is durable). */
  get endOffset(): number {
    return this.end;
  }

  /** Why this partition refuses appends, if it does. */
  get failed(): Error | null {
    return this.failure;
  }

  /** Queue events (as JSON text); resolves with the offset of the first once all are durable. */
  append(jsons: string[]): Promise<number> {
    if (this.closed) return Promise.reject(new Error(`event log is closed (append to ${this.topic})`));
    if (this.failure) return Promise.reject(this.failure);
    let encoded: { buffer: Buffer; sizes: number[] };
    try {
      encoded = encodeRecords(jsons);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise<number>((resolve, reject) => {
      this.pending.push({ jsons, ...encoded, resolve, reject });
      this.kick();
    });
  }

  /** Up to `max` durable records from `from`, served from memory when recent. */
  async read(from: number, max: number): Promise<PartitionRecord[]> {
    return (await this.readEncoded(from, max)).map((r) => ({ offset: r.offset, event: JSON.parse(r.json) }));
  }

  /** As `read`, each record's payload left as text. */
  async readEncoded(from: number, max: number): Promise<EncodedRecord[]> {
    const end = this.end;
    if (from >= end || max <= 0) return [];
    const count = Math.min(max, end - from);
    if (from >= this.cache.firstOffset) {
      return this.cache.slice(from, count).map((json, i) => ({ offset: from + i, json }));
    }
    return this.readDisk(from, count, end);
  }

  /** Call `listener` after each durable batch; returns the unsubscribe function. */
  onAppended(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Refuse new appends, finish the queued ones (they resolve), close the file. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.flushing) await this.flushing;
    const active = this.active;
    this.active = null;
    await active?.fh.close();
    this.listeners.clear();
  }

  private async recover(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const bases = names
      .map(parseSegmentFileName)
      .filter((b): b is number => b !== null)
      .sort((a, b) => a - b);
    if (bases.length === 0) return;
    for (const base of bases) this.segments.push(new Segment(this.dir, base, false));
    const last = this.segments[this.segments.length - 1];
    const fh = await open(last.path, 'r+');
    try {
      const scan = await last.scan(fh);
      if (scan.problem) {
        const cut = scan.fileBytes - scan.validBytes;
        const kept = `${this.topic}: ${scan.records} intact records kept in ${last.path}`;
        this.logger.warn(`torn tail in ${last.path} at byte ${scan.validBytes} (${scan.problem}): ${cut} bytes cut; ${kept}`);
        await this.saveTornBytes(fh, last, scan.validBytes, cut);
        await fh.truncate(scan.validBytes);
        await fh.sync();
      }
      this.active = { segment: last, fh, bytes: scan.validBytes };
      this.end = last.baseOffset + scan.records;
    } catch (err) {
      await fh.close();
      throw err;
    }
    this.cache = new TailCache(this.end, this.settings.cacheRecords, this.settings.cacheChars);
  }

  /** Keep what recovery cuts beside the segment, for a human to look at: never delete silently. */
  private async saveTornBytes(fh: FileHandle, segment: Segment, from: number, length: number): Promise<void> {
    const bytes = Buffer.alloc(length);
    await fh.read(bytes, 0, length, from);
    const file = `${segment.path}.torn-${Date.now()}`;
    await writeFile(file, bytes);
    this.logger.warn(`the ${length} bytes cut from ${segment.path} are kept in ${file}`);
  }

  private kick(): void {
    if (this.flushing) return;
    this.flushing = this.flushLoop().finally(() => {
      this.flushing = null;
      if (this.pending.length) this.kick();
    });
  }

  private async flushLoop(): Promise<void> {
    // Gather the appends of this tick (or of the optional wait) into the first commit.
    await (this.settings.groupCommitMaxWaitMs > 0 ? sleep(this.settings.groupCommitMaxWaitMs) : nextTick());
    while (this.pending.length) {
      let bytes = 0;
      let take = 0;
      while (take < this.pending.length && (take === 0 || bytes + this.pending[take].buffer.length <= MAX_COMMIT_BYTES)) {
        bytes += this.pending[take].buffer.length;
        take += 1;
      }
      const batch = this.pending.splice(0, take);
      await this.commit(batch);
      // Let the callers just acknowledged queue their next appends before the next commit.
      await nextTick();
    }
  }

  /** Write and sync one batch, then acknowledge it; settles every request, never throws. */
  private async commit(batch: AppendRequest[]): Promise<void> {
    if (this.failure) return this.rejectAll(batch, this.failure);
    let offset = this.end;
    try {
      if (!this.active) await this.createSegment(this.end);
      const active = () => this.active!;
      let pieces: Buffer[] = [];
      let bytes = 0;
      for (const req of batch) {
        let pos = 0;
        for (const size of req.sizes) {
          const filled = active().bytes + bytes;
          if (filled > 0 && filled >= this.settings.segmentBytes) {
            await this.writeActive(pieces, bytes);
            pieces = [];
            bytes = 0;
            await this.roll(offset);
          }
          active().segment.noteRecord(offset, active().bytes + bytes);
          pieces.push(req.buffer.subarray(pos, pos + size));
          pos += size;
          bytes += size;
          offset += 1;
        }
      }
      await this.writeActive(pieces, bytes);
    } catch (err) {
      this.failure = new Error(`event log partition ${this.topic} failed and refuses appends until reopened: ${(err as Error).message}`, {
        cause: err,
      });
      this.logger.warn(this.failure.message);
      this.rejectAll(batch, this.failure);
      this.rejectAll(this.pending.splice(0), this.failure);
      return;
    }
    let first = this.end;
    this.end = offset;
    for (const req of batch) {
      this.cache.push(req.jsons);
      req.resolve(first);
      first += req.jsons.length;
    }
    for (const listener of this.listeners) listener();
  }

  private rejectAll(batch: AppendRequest[], err: Error): void {
    for (const req of batch) req.reject(err);
  }

  private async writeActive(pieces: Buffer[], bytes: number): Promise<void> {
    const active = this.active;
    if (bytes === 0 || !active) return;
    await writeFully(active.fh, pieces, active.bytes);
    await active.fh.datasync();
    active.bytes += bytes;
    active.segment.durableBytes = active.bytes;
  }

  /** Seal the active segment (already synced) and start a new one at `baseOffset`. */
  private async roll(baseOffset: number): Promise<void> {
    const old = this.active;
    await this.createSegment(baseOffset);
    await old?.fh.close();
  }

  private async createSegment(baseOffset: number): Promise<void> {
    await ensureDir(this.dir);
    const segment = new Segment(this.dir, baseOffset, true);
    const fh = await open(segment.path, 'wx+');
    await syncDir(this.dir);
    this.segments.push(segment);
    this.active = { segment, fh, bytes: 0 };
  }

  private async readDisk(from: number, count: number, end: number): Promise<EncodedRecord[]> {
    const out: EncodedRecord[] = [];
    let offset = from;
    while (out.length < count) {
      const i = this.segmentIndexOf(offset);
      const segment = this.segments[i];
      const segmentEnd = i + 1 < this.segments.length ? this.segments[i + 1].baseOffset : end;
      await segment.ensureIndexed();
      const start = segment.floor(offset);
      const fh = await open(segment.path, 'r');
      try {
        const reader = new RecordReader(fh, start.pos, segment.durableBytes);
        for (let at = start.offset; at < segmentEnd && out.length < count; at++) {
          const r = reader.nextBuffered() ?? (await reader.next());
          if (r.kind !== 'record') {
            const why = r.kind === 'bad' ? `${r.reason} at byte ${r.pos}` : 'segment ends early';
            throw new Error(`event log corrupt: ${this.topic} offset ${at} in ${segment.path}: ${why}`);
          }
          if (at >= offset) out.push({ offset: at, json: r.payload.toString('utf8') });
        }
      } finally {
        await fh.close();
      }
      offset = from + out.length;
      if (offset >= segmentEnd && i + 1 >= this.segments.length) break;
    }
    return out;
  }

  /** The segment holding `offset`: the last one whose base is at or before it. */
  private segmentIndexOf(offset: number): number {
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.segments[mid].baseOffset <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
