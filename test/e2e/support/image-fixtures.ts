/** Images for the e2e suites, made here: sharp renders text and colours, the rest are
 * hostile files written byte by byte. No explicit imagery is ever made or fetched. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

export const SHARED_IMAGES = path.resolve(__dirname, '../../../../shared/data/images');

export function sharedImage(name: string): Buffer {
  return fs.readFileSync(path.join(SHARED_IMAGES, name));
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Black text on white, like a meme caption or a screenshot. */
export async function textImage(text: string, format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<Buffer> {
  const width = Math.max(600, text.length * 26);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="160">
    <rect width="100%" height="100%" fill="white"/>
    <text x="20" y="95" font-size="44" font-family="DejaVu Sans" fill="black">${escapeXml(text)}</text></svg>`;
  const img = sharp(Buffer.from(svg));
  return format === 'png' ? img.png().toBuffer() : format === 'jpeg' ? img.jpeg({ quality: 90 }).toBuffer() : img.webp().toBuffer();
}

export function solid(r: number, g: number, b: number, size = 64): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: { r, g, b } } }).png().toBuffer();
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A tiny PNG whose header claims width × height pixels (a decompression bomb's calling card). */
export function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An animated GIF of `frames` 1×1 frames, written by hand (sharp would take long to build it). */
export function gifWithFrames(frames: number): Buffer {
  const header = Buffer.from('GIF89a', 'ascii');
  const screen = Buffer.from([1, 0, 1, 0, 0x80, 0, 0]); // 1x1, global colour table of 2 entries
  const palette = Buffer.from([0, 0, 0, 255, 255, 255]);
  const loop = Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0', 'ascii'), 3, 1, 0, 0, 0]);
  const frame = Buffer.from([
    0x21, 0xf9, 4, 0, 1, 0, 0, 0, // graphic control: 10 ms
    0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, // image descriptor 1x1
    2, 2, 0x44, 0x01, 0, // LZW min code size 2; one data block: clear, 0, end
  ]);
  return Buffer.concat([header, screen, palette, loop, ...Array.from({ length: frames }, () => frame), Buffer.from([0x3b])]);
}

/** The first bytes of a zip archive (what a `.png` upload sometimes really is). */
export function zipBytes(): Buffer {
  return Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0, 8, 0]), Buffer.alloc(200, 7)]);
}
