import { crc32 } from './crc32';

/**
 * One record on disk: `u32 LE payload length | u32 LE CRC-32 of the payload | payload`,
 * where the payload is the UTF-8 JSON of one event envelope. A record carries no offset:
 * offsets are the segment's base offset plus the record's index in the segment.
 */
export const HEADER_BYTES = 8;

/** Larger lengths are refused on append and read as corruption on recovery. */
export const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

export type ParsedRecord =
  | { kind: 'record'; payloadStart: number; payloadLength: number; next: number }
  /** Not enough bytes from `pos`: `need` is how many the record takes (header only when unknown). */
  | { kind: 'incomplete'; need: number }
  | { kind: 'corrupt'; reason: string };

/** Encode payloads into one buffer of consecutive records; `sizes[i]` is record i's byte size. */
export function encodeRecords(payloads: string[]): { buffer: Buffer; sizes: number[] } {
  const lengths = payloads.map((p) => Buffer.byteLength(p, 'utf8'));
  for (const length of lengths) {
    if (length > MAX_PAYLOAD_BYTES) throw new RangeError(`event of ${length} bytes exceeds the ${MAX_PAYLOAD_BYTES}-byte record limit`);
  }
  const sizes = lengths.map((l) => HEADER_BYTES + l);
  const buffer = Buffer.allocUnsafe(sizes.reduce((a, b) => a + b, 0));
  let pos = 0;
  payloads.forEach((payload, i) => {
    const start = pos + HEADER_BYTES;
    buffer.write(payload, start, lengths[i], 'utf8');
    buffer.writeUInt32LE(lengths[i], pos);
    buffer.writeUInt32LE(crc32(buffer.subarray(start, start + lengths[i])), pos + 4);
    pos += sizes[i];
  });
  return { buffer, sizes };
}

/** Check the record starting at `pos` of `buf`, whose valid bytes end at `end`. */
export function parseRecord(buf: Buffer, pos: number, end: number): ParsedRecord {
  if (end - pos < HEADER_BYTES) return { kind: 'incomplete', need: HEADER_BYTES };
  const length = buf.readUInt32LE(pos);
  if (length === 0 || length > MAX_PAYLOAD_BYTES) return { kind: 'corrupt', reason: `bad length ${length}` };
  const total = HEADER_BYTES + length;
  if (end - pos < total) return { kind: 'incomplete', need: total };
  const payloadStart = pos + HEADER_BYTES;
  const expected = buf.readUInt32LE(pos + 4);
  if (crc32(buf.subarray(payloadStart, payloadStart + length)) !== expected) return { kind: 'corrupt', reason: 'CRC mismatch' };
  return { kind: 'record', payloadStart, payloadLength: length, next: pos + total };
}
