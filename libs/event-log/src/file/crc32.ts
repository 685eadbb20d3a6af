import * as zlib from 'node:zlib';

/** CRC-32 (IEEE 802.3, the one of zip/gzip/PNG). */
export type Crc32 = (data: Uint8Array) => number;

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** Table-driven CRC-32, for Node versions without `zlib.crc32` (added in 20.15). */
export function crc32Table(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** The native implementation when this Node has one (much faster), else the table. */
export const crc32: Crc32 = native ? (data) => native(data) >>> 0 : crc32Table;
