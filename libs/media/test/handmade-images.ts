/**
 * Hostile and odd files written byte by byte, for what an encoder would refuse to
 * produce: a PNG whose header lies about its size, a GIF of thousands of frames, a zip.
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid-looking greyscale PNG whose IHDR claims width × height, carrying one 1-pixel scanline. */
export function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 0x80]))), // filter byte, one grey pixel
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Colour of palette entry `i` in gifOfFrames: distinct for every i in 0..255. */
export const gifPaletteColour = (i: number): [number, number, number] => [i, 255 - i, (i * 7) % 256];

/**
 * A GIF89a of `size`×`size` frames; frame k is filled with palette entry
 * `frameColours[k]` (0..255). LZW is written uncompressed: 9-bit literal codes, a clear
 * code before every run, so the code table never grows past 9 bits.
 */
export function gifOfFrames(frameColours: number[], size = 8): Buffer {
  const header = Buffer.alloc(13);
  header.write('GIF89a', 0, 'latin1');
  header.writeUInt16LE(size, 6);
  header.writeUInt16LE(size, 8);
  header.writeUInt8(0xf7, 10); // global colour table of 256 entries, 8 bits
  const palette = Buffer.from(Array.from({ length: 256 }, (_, i) => gifPaletteColour(i)).flat());
  const loop = Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0', 'latin1'), 0x03, 0x01, 0x00, 0x00, 0x00]);
  const frames = frameColours.map((colour) => gifFrame(colour, size));
  return Buffer.concat([header, palette, loop, ...frames, Buffer.from([0x3b])]);
}

function gifFrame(colour: number, size: number): Buffer {
  const control = Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00]); // 100 ms, no disposal
  const descriptor = Buffer.alloc(10);
  descriptor.writeUInt8(0x2c, 0);
  descriptor.writeUInt16LE(size, 5);
  descriptor.writeUInt16LE(size, 7);
  const codes: number[] = [];
  for (let i = 0; i < size * size; i++) {
    if (i % 200 === 0) codes.push(256); // clear before the table reaches 512 entries
    codes.push(colour);
  }
  codes.push(257);
  const data = packCodes(codes, 9);
  const blocks: number[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const block = data.subarray(at, at + 255);
    blocks.push(block.length, ...block);
  }
  return Buffer.concat([control, descriptor, Buffer.from([8, ...blocks, 0])]);
}

function packCodes(codes: number[], width: number): Buffer {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const code of codes) {
    acc |= code << bits;
    bits += width;
    while (bits >= 8) {
      out.push(acc & 0xff);
      acc >>>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) out.push(acc & 0xff);
  return Buffer.from(out);
}

/** A zip archive holding one stored file. */
export function zipOf(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const file = Buffer.from(name);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(file.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(file.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + file.length, 12);
  end.writeUInt32LE(local.length + file.length + data.length, 16);
  return Buffer.concat([local, file, data, central, file, end]);
}

/** A little-endian TIFF of uncompressed 8-bit grey pages of different sizes, page k filled with `grey[k]`. */
export function tiffOfPages(pages: { width: number; height: number; grey: number }[]): Buffer {
  const ENTRIES = 9;
  const ifdSize = 2 + ENTRIES * 12 + 4;
  const parts: Buffer[] = [Buffer.from([0x49, 0x49, 0x2a, 0x00, 0, 0, 0, 0])];
  let offset = 8;
  const ifdOffsets: number[] = [];
  const dataOffsets: number[] = [];
  for (const page of pages) {
    ifdOffsets.push(offset);
    dataOffsets.push(offset + ifdSize);
    offset += ifdSize + page.width * page.height;
  }
  parts[0].writeUInt32LE(ifdOffsets[0], 4);
  pages.forEach((page, k) => {
    const ifd = Buffer.alloc(ifdSize);
    ifd.writeUInt16LE(ENTRIES, 0);
    const tags: [number, number, number][] = [
      [256, 4, page.width], // ImageWidth, LONG
      [257, 4, page.height], // ImageLength
      [258, 3, 8], // BitsPerSample, SHORT
      [259, 3, 1], // Compression: none
      [262, 3, 1], // Photometric: black is zero
      [273, 4, dataOffsets[k]], // StripOffsets
      [277, 3, 1], // SamplesPerPixel
      [278, 4, page.height], // RowsPerStrip
      [279, 4, page.width * page.height], // StripByteCounts
    ];
    tags.forEach(([tag, type, value], i) => {
      const at = 2 + i * 12;
      ifd.writeUInt16LE(tag, at);
      ifd.writeUInt16LE(type, at + 2);
      ifd.writeUInt32LE(1, at + 4);
      if (type === 3) ifd.writeUInt16LE(value, at + 8);
      else ifd.writeUInt32LE(value, at + 8);
    });
    ifd.writeUInt32LE(k + 1 < pages.length ? ifdOffsets[k + 1] : 0, 2 + ENTRIES * 12);
    parts.push(ifd, Buffer.alloc(page.width * page.height, page.grey));
  });
  return Buffer.concat(parts);
}
