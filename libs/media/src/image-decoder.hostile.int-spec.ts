/**
 * Inputs built to hurt: each must end in its exact error code (or a bounded answer)
 * without decoding what it claims. The per-test timeout is a hang guard, not a measurement.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { DomainError } from '@cds/errors';
import { gifOfFrames, gifPaletteColour, pngClaiming, tiffOfPages, zipOf } from '../test/handmade-images';
import { decodeImage, DecodeImageOptions } from './image-decoder';

const OPTIONS: DecodeImageOptions = { maxPixels: 40_000_000, maxFrames: 8, modelSize: 16, ocrMaxSide: 2000 };
const FAST = 5_000;

async function failure(bytes: Buffer, options = OPTIONS): Promise<DomainError> {
  const outcome = await decodeImage(bytes, options).then(
    () => new Error('expected a DomainError; the image decoded'),
    (err: unknown) => err,
  );
  if (outcome instanceof DomainError) return outcome;
  throw outcome;
}

describe('decodeImage on hostile input', () => {
  it(
    'refuses a tiny PNG whose header claims 100 000 × 100 000 pixels from the header alone',
    async () => {
      const liar = pngClaiming(100_000, 100_000);
      expect(liar.length).toBeLessThan(100);

      const error = await failure(liar);

      expect(error).toMatchObject({
        kind: 'invalid',
        code: 'IMAGE_TOO_LARGE',
        details: 'the image is 100000×100000 = 10000000000 pixels; the limit is 40000000 pixels',
      });
    },
    FAST,
  );

  it(
    'refuses a JPEG cut in half as INVALID_IMAGE',
    async () => {
      const jpeg = readFileSync('/work/shared/data/images/rocket.jpg');

      const error = await failure(jpeg.subarray(0, jpeg.length >> 1));

      expect(error).toMatchObject({ code: 'INVALID_IMAGE' });
      expect(error.details).toMatch(/^the JPEG image is corrupt or truncated \(.+\)$/);
    },
    FAST,
  );

  it(
    'refuses a PNG cut in half as INVALID_IMAGE',
    async () => {
      const png = readFileSync('/work/shared/data/images/chelsea.png');

      expect(await failure(png.subarray(0, png.length >> 1))).toMatchObject({ code: 'INVALID_IMAGE' });
    },
    FAST,
  );

  it(
    'refuses bytes that only start like an image as INVALID_IMAGE',
    async () => {
      for (const bytes of [Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]), Buffer.from('GIF89a'), Buffer.from('RIFF\0\0\0\0WEBPVP8 ')]) {
        expect(await failure(bytes)).toMatchObject({ code: 'INVALID_IMAGE' });
      }
    },
    FAST,
  );

  it(
    'samples maxFrames frames spread over a GIF of 5000 frames, each the right one',
    async () => {
      const colours = Array.from({ length: 5000 }, (_, i) => (i * 37) % 256);
      const gif = gifOfFrames(colours);

      const decoded = await decodeImage(gif, OPTIONS);

      expect(decoded).toMatchObject({ format: 'gif', width: 8, height: 8, frameCount: 5000 });
      expect(decoded.frames.map((f) => f.index)).toEqual([0, 714, 1428, 2142, 2857, 3571, 4285, 4999]);
      for (const frame of decoded.frames) {
        expect([...frame.rgb.subarray(0, 3)]).toEqual(gifPaletteColour(colours[frame.index]));
        expect(frame.rgb).toHaveLength(16 * 16 * 3);
      }
    },
    FAST,
  );

  it(
    'refuses an animation whose scored frames cost more to reach than maxFrames still images',
    async () => {
      const gif = gifOfFrames(
        Array.from({ length: 200 }, (_, i) => i),
        8,
      );

      const error = await failure(gif, { ...OPTIONS, maxPixels: 64, maxFrames: 2 });

      expect(error).toMatchObject({ code: 'IMAGE_TOO_LARGE' });
      expect(error.details).toBe(
        'the animation has 200 frames of 8×8; reaching the 2 frames scored means decoding 12864 pixels, past the limit of 128 (maxPixels × maxFrames)',
      );
    },
    FAST,
  );

  it(
    'refuses one frame past maxPixels, saying the size and the limit',
    async () => {
      const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: 'red' } })
        .png()
        .toBuffer();

      expect(await failure(png, { ...OPTIONS, maxPixels: 59_999 })).toMatchObject({
        code: 'IMAGE_TOO_LARGE',
        details: 'the image is 300×200 = 60000 pixels; the limit is 59999 pixels',
      });
    },
    FAST,
  );

  it(
    'refuses a TIFF page past maxPixels even when the first page is small',
    async () => {
      const pages = tiffOfPages([
        { width: 10, height: 10, grey: 50 },
        { width: 200, height: 200, grey: 150 },
      ]);
      const firstOnly = await decodeImage(pages, { ...OPTIONS, maxFrames: 1, maxPixels: 9_999 });
      expect(firstOnly).toMatchObject({ format: 'tiff', width: 10, height: 10, frameCount: 2 });

      expect(await failure(pages, { ...OPTIONS, maxPixels: 9_999 })).toMatchObject({
        code: 'IMAGE_TOO_LARGE',
        details: 'a page of the TIFF image is larger than the limit of 9999 pixels',
      });
    },
    FAST,
  );

  it(
    'refuses a zip archive as INVALID_IMAGE, naming it',
    async () => {
      expect(await failure(zipOf('cat.png', 'not really a cat'))).toMatchObject({
        code: 'INVALID_IMAGE',
        details: 'the bytes are a ZIP archive (or a ZIP-based document), not an image; accepted formats: JPEG, PNG, WebP, GIF, AVIF, TIFF',
      });
    },
    FAST,
  );

  it(
    'refuses SVG as UNSUPPORTED_IMAGE_FORMAT without rendering it',
    async () => {
      const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect/></svg>');

      const error = await failure(svg);

      expect(error).toMatchObject({ code: 'UNSUPPORTED_IMAGE_FORMAT' });
      expect(error.details).toContain('rasterize it to PNG first');
    },
    FAST,
  );

  it(
    'refuses a BMP as UNSUPPORTED_IMAGE_FORMAT, naming it',
    async () => {
      const bmp = Buffer.alloc(58);
      bmp.write('BM', 0, 'latin1');
      bmp.writeUInt32LE(58, 2);
      bmp.writeUInt32LE(54, 10);

      expect(await failure(bmp)).toMatchObject({ code: 'UNSUPPORTED_IMAGE_FORMAT', details: expect.stringMatching(/^a BMP image is not accepted/) });
    },
    FAST,
  );

  it(
    'refuses zero bytes as INVALID_IMAGE',
    async () => {
      expect(await failure(Buffer.alloc(0))).toMatchObject({ code: 'INVALID_IMAGE', details: 'the image is empty (zero bytes)' });
    },
    FAST,
  );
});
