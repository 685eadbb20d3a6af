/** Images for the e2e suites, made here: sharp renders text and colours, the rest are
 * hostile files written byte by byte. No explicit imagery is ever made or fetched. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gifOfFrames, zipOf } from '../../../libs/media/test/handmade-images';
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
  return sharp({ create: { width: size, height: size, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}

/** A smooth colour gradient (red across, green down, blue falling): no text, nothing but colour. */
export function gradient(width = 320, height = 200): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      raw[at] = Math.round((255 * x) / (width - 1));
      raw[at + 1] = Math.round((255 * y) / (height - 1));
      raw[at + 2] = 255 - raw[at];
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** Hostile files written byte by byte: libs/media's own test builders (a PNG whose header
 * claims 100 000 × 100 000 pixels, a GIF of thousands of 1-colour frames, a zip). */
export { pngClaiming } from '../../../libs/media/test/handmade-images';

/** An animated GIF of `frames` small frames. */
export function gifWithFrames(frames: number): Buffer {
  return gifOfFrames(
    Array.from({ length: frames }, (_, i) => i % 256),
    1,
  );
}

/** A zip archive (what a `.png` upload sometimes really is). */
export function zipBytes(): Buffer {
  return zipOf('photo.png', 'not an image at all');
}
