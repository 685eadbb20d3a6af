import { crc32, crc32Table } from './crc32';

describe('crc32', () => {
  const vectors: Array<[string, number]> = [
    ['', 0x00000000],
    ['123456789', 0xcbf43926],
    ['The quick brown fox jumps over the lazy dog', 0x414fa339],
  ];

  it.each(vectors)('table implementation of %j', (input, expected) => {
    expect(crc32Table(Buffer.from(input))).toBe(expected);
  });

  it.each(vectors)('selected implementation of %j', (input, expected) => {
    expect(crc32(Buffer.from(input))).toBe(expected);
  });

  it('table and selected implementations agree on binary data', () => {
    const data = Buffer.alloc(4096);
    for (let i = 0; i < data.length; i++) data[i] = (i * 131 + 7) & 0xff;
    expect(crc32Table(data)).toBe(crc32(data));
  });
});
