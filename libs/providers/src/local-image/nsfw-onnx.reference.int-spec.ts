import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeImage } from '@cds/media';
import { NSFW_INPUT_SIZE, NsfwPool } from './nsfw-pool';
import { NsfwScores } from './nsfw-scores';
import { loadNsfwjsOnTfjs, NsfwjsOnTfjs } from './nsfwjs-tfjs';

/**
 * nsfwjs's model converted to ONNX (onnx-image/nsfw-onnx.ts, run by onnxruntime in the
 * pool) against nsfwjs itself on tfjs (WebAssembly backend), frame by frame: the 13
 * public-domain photos, the drawn fixtures of the image safety model, and flat colours.
 */
const SHARED = '/work/shared/data/images';
const DRAWN = join(__dirname, '..', 'image-safety', 'fixtures');
const OPTIONS = { maxPixels: 40_000_000, maxFrames: 1, modelSize: NSFW_INPUT_SIZE, ocrMaxSide: 2000, withOcrImage: false };
const worstDiff = (a: NsfwScores, b: NsfwScores) => Math.max(...(Object.keys(a) as (keyof NsfwScores)[]).map((k) => Math.abs(a[k] - b[k])));

const IMAGES = [...readdirSync(SHARED).map((f) => join(SHARED, f)), ...readdirSync(DRAWN).map((f) => join(DRAWN, f))].filter((f) =>
  /\.(png|jpe?g|gif|webp|tiff)$/i.test(f),
);

jest.setTimeout(120_000);

describe("nsfwjs's model converted to ONNX scores as nsfwjs on tfjs does", () => {
  let pool: NsfwPool;
  let tfjs: NsfwjsOnTfjs;
  beforeAll(async () => {
    pool = NsfwPool.start({ workers: 1 });
    tfjs = await loadNsfwjsOnTfjs();
    await pool.ready();
  });
  afterAll(async () => {
    tfjs?.dispose();
    await pool?.close();
  });

  it('covers the 13 photos and the drawn fixtures', () => {
    expect(IMAGES.filter((f) => f.startsWith(SHARED))).toHaveLength(13);
    expect(IMAGES.length).toBeGreaterThanOrEqual(24);
  });

  it.each(IMAGES.map((f) => [f.slice(f.lastIndexOf('/') + 1), f] as const))('%s: every class within 1e-5', async (_name, file) => {
    const [frame] = (await decodeImage(readFileSync(file), OPTIONS)).frames;
    const [ours, theirs] = await Promise.all([pool.classify(frame.rgb), tfjs.classify(frame.rgb)]);
    // measured (2026-11-29): at most 1.1e-6; float summation order only
    expect(worstDiff(ours, theirs)).toBeLessThan(1e-5);
  });

  it('flat colours and a batch of different frames: each frame its own scores', async () => {
    const frames = [0, 128, 255].map((v) => new Uint8Array(NSFW_INPUT_SIZE * NSFW_INPUT_SIZE * 3).fill(v));
    const ours = await Promise.all(frames.map((f) => pool.classify(f))); // submitted in one tick: one batch
    for (let i = 0; i < frames.length; i++) expect(worstDiff(ours[i], await tfjs.classify(frames[i]))).toBeLessThan(1e-5);
    expect(worstDiff(ours[0], ours[2])).toBeGreaterThan(1e-3);
  });
});
