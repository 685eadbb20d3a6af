import { FileHandle, open } from 'node:fs/promises';
import * as path from 'node:path';
import { parseRecord } from './record-codec';

/** One index entry every this many records: a read scans at most this many records
 * of a segment before reaching the offset it wants. */
export const INDEX_INTERVAL = 64;

const READ_CHUNK = 256 * 1024;
const SEGMENT_NAME = /^(\d{20})\.seg$/;

export function segmentFileName(baseOffset: number): string {
  return `${String(baseOffset).padStart(20, '0')}.seg`;
}

/** The base offset named by a segment file, or null for any other file. */
export function parseSegmentFileName(name: string): number | null {
  const m = SEGMENT_NAME.exec(name);
  return m ? Number(m[1]) : null;
}

export type ReadResult =
  | { kind: 'record'; pos: number; payload: Buffer }
  | { kind: 'end' }
  /** The bytes at `pos` are not a whole, intact record. */
  | { kind: 'bad'; pos: number; reason: string };

/**
 * Reads records one after the other from `pos` up to byte `limit` of a file, in chunks.
 * A returned payload is a view of the reader's buffer: use it before the next call.
 */
export class RecordReader {
  private buf = Buffer.allocUnsafe(READ_CHUNK);
  /** File position of buf[0], and how many bytes of buf are valid. */
  private bufStart: number;
  private bufLen = 0;
  /** Bytes the record at pos takes, when nextBuffered() found it incomplete. */
  private need = 0;

  constructor(
    private readonly fh: FileHandle,
    private pos: number,
    private readonly limit: number,
  ) {
    this.bufStart = pos;
  }

  get position(): number {
    return this.pos;
  }

  /**
   * The next record when the buffer already holds it (or the end, or a bad record): no
   * I/O and no promise, which is most calls of a sequential read. Null when the buffer
   * must be filled first: `next()` does that.
   */
  nextBuffered(): ReadResult | null {
    if (this.pos >= this.limit) return { kind: 'end' };
    const r = parseRecord(this.buf, this.pos - this.bufStart, Math.min(this.bufLen, this.limit - this.bufStart));
    switch (r.kind) {
      case 'record': {
        const pos = this.pos;
        this.pos = this.bufStart + r.next;
        return { kind: 'record', pos, payload: this.buf.subarray(r.payloadStart, r.payloadStart + r.payloadLength) };
      }
      case 'corrupt':
        return { kind: 'bad', pos: this.pos, reason: r.reason };
      case 'incomplete':
        if (this.pos + r.need > this.limit) return { kind: 'bad', pos: this.pos, reason: `partial record (${this.limit - this.pos} of ${r.need} bytes)` };
        this.need = r.need;
        return null;
    }
  }

  async next(): Promise<ReadResult> {
    for (;;) {
      const r = this.nextBuffered();
      if (r) return r;
      if (!(await this.fill(this.need))) return { kind: 'bad', pos: this.pos, reason: 'file shorter than expected' };
    }
  }

  /** Make buf start at this.pos and hold at least `need` bytes (false when the file ends first). */
  private async fill(need: number): Promise<boolean> {
    const keep = this.bufStart + this.bufLen - this.pos;
    const want = Math.min(Math.max(need, READ_CHUNK), this.limit - this.pos);
    const target = want > this.buf.length ? Buffer.allocUnsafe(want) : this.buf;
    if (keep > 0) this.buf.copy(target, 0, this.pos - this.bufStart, this.pos - this.bufStart + keep);
    this.buf = target;
    this.bufStart = this.pos;
    this.bufLen = Math.max(keep, 0);
    while (this.bufLen < want) {
      const { bytesRead } = await this.fh.read(this.buf, this.bufLen, want - this.bufLen, this.bufStart + this.bufLen);
      if (bytesRead === 0) break;
      this.bufLen += bytesRead;
    }
    return this.bufLen >= need;
  }
}

export interface ScanResult {
  records: number;
  /** Where the last intact record ends. */
  validBytes: number;
  fileBytes: number;
  /** Why the scan stopped before the end of the file, when it did. */
  problem: string | null;
}

/**
 * One append-only file of consecutive records; record i has offset baseOffset + i.
 * Holds the sparse index `positions[k]` = byte position of record baseOffset + k * INDEX_INTERVAL.
 */
export class Segment {
  readonly path: string;
  /** Bytes that are written and fsync'd; reads never go past them. */
  durableBytes = 0;
  private readonly positions: number[] = [];
  private indexing: Promise<void> | null = null;

  /** Whether the index is complete: a new segment is indexed as it is written, an existing
   * one once scanned. */
  private indexed: boolean;

  constructor(
    dir: string,
    readonly baseOffset: number,
    isNew: boolean,
  ) {
    this.indexed = isNew;
    this.path = path.join(dir, segmentFileName(baseOffset));
  }

  /** Note where record `offset` starts; called for every record, in order. */
  noteRecord(offset: number, pos: number): void {
    const i = offset - this.baseOffset;
    if (i % INDEX_INTERVAL === 0 && i / INDEX_INTERVAL === this.positions.length) this.positions.push(pos);
  }

  /** The indexed record at or before `offset`. */
  floor(offset: number): { offset: number; pos: number } {
    const k = Math.min(Math.floor((offset - this.baseOffset) / INDEX_INTERVAL), this.positions.length - 1);
    if (k < 0) return { offset: this.baseOffset, pos: 0 };
    return { offset: this.baseOffset + k * INDEX_INTERVAL, pos: this.positions[k] };
  }

  /** Scan the whole file once, indexing it (sealed segments are indexed on first read). */
  ensureIndexed(): Promise<void> {
    if (this.indexed) return Promise.resolve();
    this.indexing ??= (async () => {
      const fh = await open(this.path, 'r');
      try {
        await this.scan(fh);
      } finally {
        await fh.close();
      }
    })().finally(() => {
      this.indexing = null;
    });
    return this.indexing;
  }

  /** Walk every intact record from the start, indexing them; stops at the first bad one,
   * and from then on reads of this segment end there. */
  async scan(fh: FileHandle): Promise<ScanResult> {
    this.positions.length = 0;
    const fileBytes = (await fh.stat()).size;
    const reader = new RecordReader(fh, 0, fileBytes);
    let records = 0;
    let result: ScanResult | null = null;
    while (!result) {
      const r = reader.nextBuffered() ?? (await reader.next());
      if (r.kind === 'end') result = { records, validBytes: reader.position, fileBytes, problem: null };
      else if (r.kind === 'bad') result = { records, validBytes: r.pos, fileBytes, problem: r.reason };
      else {
        this.noteRecord(this.baseOffset + records, r.pos);
        records += 1;
      }
    }
    this.durableBytes = result.validBytes;
    this.indexed = true;
    return result;
  }
}
