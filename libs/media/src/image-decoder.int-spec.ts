import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { decodeImage, DecodeImageOptions } from './image-decoder';

const OPTIONS: DecodeImageOptions = { maxPixels: 40_000_000, maxFrames: 8, modelSize: 32, ocrMaxSide: 2000 };
const photo = (name: string) => readFileSync(`/work/shared/data/images/${name}`);
type Rgb = [number, number, number];

/** Mean colour of RGB pixels in rows [from, to) of a square frame. */
function meanColour(rgb: Buffer, size: number, fromRow = 0, toRow = size): Rgb {
  const sum = [0, 0, 0];
  for (let i = fromRow * size * 3; i < toRow * size * 3; i += 3) for (let c = 0; c < 3; c++) sum[c] += rgb[i + c];
  const count = (toRow - fromRow) * size;
  return sum.map((s) => Math.round(s / count)) as Rgb;
}

function expectColour(actual: Rgb, expected: Rgb, tolerance = 12): void {
  actual.forEach((value, c) => expect(Math.abs(value - expected[c])).toBeLessThanOrEqual(tolerance));
}

const solid = (width: number, height: number, [r, g, b]: Rgb) => sharp({ create: { width, height, channels: 3, background: { r, g, b } } });

describe('decodeImage', () => {
  it('decodes a still PNG into one RGB frame at the model size', async () => {
    const png = await solid(300, 200, [200, 30, 60]).png().toBuffer();

    const decoded = await decodeImage(png, OPTIONS);

    expect(decoded).toMatchObject({ format: 'png', width: 300, height: 200, frameCount: 1 });
    expect(decoded.frames.map((f) => f.index)).toEqual([0]);
    expect(decoded.frames[0].rgb).toHaveLength(32 * 32 * 3);
    expectColour(meanColour(decoded.frames[0].rgb, 32), [200, 30, 60], 2);
  });

  it('stretches the whole picture into the square (fit fill): nothing at the edges is cut off', async () => {
    // A wide image: red on the left third, blue in the middle, green on the right third.
    const thirds = await sharp({ create: { width: 900, height: 100, channels: 3, background: 'blue' } })
      .composite([
        { input: await solid(300, 100, [255, 0, 0]).png().toBuffer(), left: 0, top: 0 },
        { input: await solid(300, 100, [0, 255, 0]).png().toBuffer(), left: 600, top: 0 },
      ])
      .jpeg({ quality: 95 })
      .toBuffer();

    const { rgb } = (await decodeImage(thirds, OPTIONS)).frames[0];

    const pixel = (x: number, y: number): Rgb => [rgb[(y * 32 + x) * 3], rgb[(y * 32 + x) * 3 + 1], rgb[(y * 32 + x) * 3 + 2]];
    expectColour(pixel(2, 16), [255, 0, 0], 40);
    expectColour(pixel(16, 16), [0, 0, 255], 40);
    expectColour(pixel(29, 16), [0, 255, 0], 40);
    expectColour(pixel(2, 0), [255, 0, 0], 40);
    expectColour(pixel(29, 31), [0, 255, 0], 40);
  });

  it('applies the EXIF orientation before anything else', async () => {
    // Stored 200×100 with red on the left, blue on the right; orientation 6 turns it a quarter clockwise.
    const stored = await sharp({ create: { width: 200, height: 100, channels: 3, background: 'blue' } })
      .composite([{ input: await solid(100, 100, [255, 0, 0]).png().toBuffer(), left: 0, top: 0 }])
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();

    const decoded = await decodeImage(stored, OPTIONS);

    expect(decoded).toMatchObject({ format: 'jpeg', width: 100, height: 200 });
    expectColour(meanColour(decoded.frames[0].rgb, 32, 0, 14), [255, 0, 0], 30);
    expectColour(meanColour(decoded.frames[0].rgb, 32, 18, 32), [0, 0, 255], 30);
    const ocr = await sharp(decoded.ocrImage!).metadata();
    expect([ocr.width, ocr.height]).toEqual([200, 400]);
  });

  it('flattens transparency onto white', async () => {
    const transparent = await sharp({ create: { width: 50, height: 50, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();

    const decoded = await decodeImage(transparent, OPTIONS);

    expect(decoded.frames[0].rgb).toHaveLength(32 * 32 * 3);
    expectColour(meanColour(decoded.frames[0].rgb, 32), [255, 255, 255], 0);
  });

  it('gives three channels for greyscale and 16-bit inputs too', async () => {
    const sixteenBit = await solid(10, 10, [0, 128, 255]).toColourspace('rgb16').png().toBuffer();
    expect((await sharp(sixteenBit).metadata()).depth).toBe('ushort');

    for (const input of [photo('camera.png'), sixteenBit]) {
      const { frames } = await decodeImage(input, OPTIONS);
      expect(frames[0].rgb).toHaveLength(32 * 32 * 3);
    }
    expectColour(meanColour((await decodeImage(sixteenBit, OPTIONS)).frames[0].rgb, 32), [0, 128, 255], 2);
  });

  it.each([
    ['chelsea.png', 'png', 451, 300],
    ['coffee.png', 'png', 600, 400],
    ['rocket.jpg', 'jpeg', 640, 427],
  ])('decodes the photo %s', async (name, format, width, height) => {
    const decoded = await decodeImage(photo(name), { ...OPTIONS, modelSize: 224 });

    expect(decoded).toMatchObject({ format, width, height, frameCount: 1 });
    expect(decoded.frames[0].rgb).toHaveLength(224 * 224 * 3);
    const ocr = await sharp(decoded.ocrImage!).metadata();
    expect(ocr).toMatchObject({ format: 'png', channels: 1, width: width * 2, height: height * 2 });
  });

  it('shrinks a large picture for OCR to ocrMaxSide, keeping its proportions', async () => {
    const decoded = await decodeImage(photo('coffee.png'), { ...OPTIONS, ocrMaxSide: 300 });

    const ocr = await sharp(decoded.ocrImage!).metadata();
    expect([ocr.width, ocr.height]).toEqual([300, 200]);
  });

  it('keeps text legible in the OCR picture: dark letters on white', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><text x="10" y="60" font-size="40" fill="#000">HELLO WORLD</text></svg>';
    const rendered = await sharp(Buffer.from(svg)).png().toBuffer(); // transparent, black text

    const decoded = await decodeImage(rendered, OPTIONS);

    expect(await sharp(decoded.ocrImage!).metadata()).toMatchObject({ format: 'png', width: 800, height: 200, channels: 1 });
    const { data } = await sharp(decoded.ocrImage!).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    const dark = data.filter((v) => v < 64).length;
    const light = data.filter((v) => v > 192).length;
    expect(dark).toBeGreaterThan(1000);
    expect(light).toBeGreaterThan(data.length / 2);
  });

  it('decodes every frame of a short animated GIF, each its own colour', async () => {
    const colours: Rgb[] = [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
      [255, 255, 0],
    ];
    const pages = await Promise.all(colours.map((c) => solid(40, 30, c).png().toBuffer()));
    const gif = await sharp(pages, { join: { animated: true } })
      .gif()
      .toBuffer();

    const decoded = await decodeImage(gif, OPTIONS);

    expect(decoded).toMatchObject({ format: 'gif', width: 40, height: 30, frameCount: 4 });
    expect(decoded.frames.map((f) => f.index)).toEqual([0, 1, 2, 3]);
    decoded.frames.forEach((frame, i) => expectColour(meanColour(frame.rgb, 32), colours[i], 8));
  });

  it('spreads the frames of an animated WebP evenly, first and last included', async () => {
    const colours: Rgb[] = Array.from({ length: 10 }, (_, i) => [i * 25, 255 - i * 25, 128]);
    const pages = await Promise.all(colours.map((c) => solid(24, 24, c).png().toBuffer()));
    const webp = await sharp(pages, { join: { animated: true } })
      .webp({ lossless: true })
      .toBuffer();

    const decoded = await decodeImage(webp, { ...OPTIONS, maxFrames: 3 });

    expect(decoded).toMatchObject({ format: 'webp', width: 24, height: 24, frameCount: 10 });
    expect(decoded.frames.map((f) => f.index)).toEqual([0, 5, 9]);
    decoded.frames.forEach((frame) => expectColour(meanColour(frame.rgb, 32), colours[frame.index], 2));
  });

  it('treats the pages of a multi-page TIFF as frames', async () => {
    const raw = Buffer.concat([0, 100, 200].map((v) => Buffer.alloc(10 * 10 * 3, v)));
    const tiff = await sharp(raw, { raw: { width: 10, height: 30, channels: 3, pageHeight: 10 } })
      .tiff()
      .toBuffer();

    const decoded = await decodeImage(tiff, OPTIONS);

    expect(decoded).toMatchObject({ format: 'tiff', width: 10, height: 10, frameCount: 3 });
    decoded.frames.forEach((frame, i) => expectColour(meanColour(frame.rgb, 32), [i * 100, i * 100, i * 100], 1));
  });

  it('decodes AVIF', async () => {
    const avif = await solid(64, 48, [20, 200, 20]).avif().toBuffer();

    const decoded = await decodeImage(avif, OPTIONS);

    expect(decoded).toMatchObject({ format: 'avif', width: 64, height: 48, frameCount: 1 });
    expectColour(meanColour(decoded.frames[0].rgb, 32), [20, 200, 20], 12);
  });
});
