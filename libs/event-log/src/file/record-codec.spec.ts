import { encodeRecords, HEADER_BYTES, MAX_PAYLOAD_BYTES, parseRecord } from './record-codec';

function parseAll(buf: Buffer): { payloads: string[]; stop: ReturnType<typeof parseRecord> | null } {
  const payloads: string[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const r = parseRecord(buf, pos, buf.length);
    if (r.kind !== 'record') return { payloads, stop: r };
    payloads.push(buf.toString('utf8', r.payloadStart, r.payloadStart + r.payloadLength));
    pos = r.next;
  }
  return { payloads, stop: null };
}

describe('record codec', () => {
  const payloads = ['{"a":1}', '{"b":"ünïcødé ✓"}', '{"c":[1,2,3]}'];

  it('round-trips consecutive records, multi-byte characters included', () => {
    const { buffer, sizes } = encodeRecords(payloads);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(buffer.length);
    expect(sizes[1]).toBe(HEADER_BYTES + Buffer.byteLength(payloads[1]));
    expect(parseAll(buffer)).toEqual({ payloads, stop: null });
  });

  it('reports a record cut short as incomplete, with the bytes it needs', () => {
    const { buffer, sizes } = encodeRecords(payloads);
    const cut = buffer.subarray(0, sizes[0] + sizes[1] - 3);
    const { payloads: read, stop } = parseAll(cut);
    expect(read).toEqual([payloads[0]]);
    expect(stop).toEqual({ kind: 'incomplete', need: sizes[1] });
    expect(parseRecord(buffer, 0, 5)).toEqual({ kind: 'incomplete', need: HEADER_BYTES });
  });

  it('reports a flipped payload byte as a CRC mismatch', () => {
    const { buffer, sizes } = encodeRecords(payloads);
    buffer[sizes[0] + HEADER_BYTES + 2] ^= 0x01;
    expect(parseAll(buffer).stop).toEqual({ kind: 'corrupt', reason: 'CRC mismatch' });
  });

  it('reports zeros and absurd lengths as a bad length', () => {
    expect(parseRecord(Buffer.alloc(64), 0, 64)).toEqual({ kind: 'corrupt', reason: 'bad length 0' });
    const garbage = Buffer.from('garbage bytes that are not a record');
    expect(parseRecord(garbage, 0, garbage.length).kind).toBe('corrupt');
  });

  it('refuses a payload over the record limit', () => {
    expect(() => encodeRecords(['x'.repeat(MAX_PAYLOAD_BYTES + 1)])).toThrow(RangeError);
  });
});
