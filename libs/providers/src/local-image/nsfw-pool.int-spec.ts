import { join } from 'path';
import sharp from 'sharp';
import { NSFW_INPUT_BYTES, NSFW_INPUT_SIZE, NsfwPool } from './nsfw-pool';
import { NsfwScores } from './nsfw-scores';

// One pool for the whole file: each worker converts and loads the model (~0.5 s, more on a busy machine).
jest.setTimeout(60_000);

const IMAGES = '/work/shared/data/images';
const PHOTOS = ['chelsea.png', 'coffee.png', 'rocket.jpg'];
const QUEUE_LIMIT = 20;

async function photo(name: string): Promise<Uint8Array> {
  const { data, info } = await sharp(join(IMAGES, name))
    .resize(NSFW_INPUT_SIZE, NSFW_INPUT_SIZE, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  expect(info.channels).toBe(3);
  return new Uint8Array(data);
}

async function solid(r: number, g: number, b: number): Promise<Uint8Array> {
  const size = NSFW_INPUT_SIZE;
  return new Uint8Array(
    await sharp({ create: { width: size, height: size, channels: 3, background: { r, g, b } } })
      .raw()
      .toBuffer(),
  );
}

const sum = (s: NsfwScores) => s.drawing + s.hentai + s.neutral + s.porn + s.sexy;

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('NsfwPool (nsfwjs MobileNetV2Mid converted to ONNX, 2 worker threads)', () => {
  let pool: NsfwPool;
  const logs: string[] = [];
  const frames = new Map<string, Uint8Array>();
  const reference = new Map<string, NsfwScores>();

  beforeAll(async () => {
    pool = NsfwPool.start({ workers: 2, queueLimit: QUEUE_LIMIT, log: (level, msg) => logs.push(`${level}: ${msg}`) });
    for (const name of PHOTOS) frames.set(name, await photo(name));
    frames.set('white', await solid(255, 255, 255));
    frames.set('black', await solid(0, 0, 0));
    frames.set('red', await solid(220, 30, 30));
    await pool.ready();
  });

  afterAll(async () => {
    await pool?.close();
  });

  it('is ready with both workers holding the model', () => {
    expect(pool.state).toBe('ready');
    expect(pool.stats().workers.map((w) => w.ready)).toEqual([true, true]);
  });

  it('gives five probabilities summing to 1 for photos and solid colours', async () => {
    for (const [name, rgb] of frames) {
      const scores = await pool.classify(rgb);
      reference.set(name, scores);
      for (const v of Object.values(scores)) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
      expect(sum(scores)).toBeCloseTo(1, 3);
    }
  });

  it('scores photos of safe content low on porn, hentai and sexy', () => {
    // measured: 0.011 (cat), 0.0002 (coffee), 0.003 (rocket)
    for (const name of PHOTOS) {
      const s = reference.get(name)!;
      expect(s.porn + s.hentai + s.sexy).toBeLessThan(0.1);
      expect(s.neutral + s.drawing).toBeGreaterThan(0.9);
    }
  });

  it('gives the same scores for the same frame, whichever worker reads it', async () => {
    const rgb = frames.get('coffee.png')!;
    const [a, b] = await Promise.all([pool.classify(rgb), pool.classify(rgb)]);
    expect(a).toEqual(reference.get('coffee.png'));
    expect(b).toEqual(a);
  });

  it('answers 20 concurrent frames, each with its own scores', async () => {
    const names = [...frames.keys()];
    const batch = Array.from({ length: 20 }, (_, i) => names[i % names.length]);
    const results = await Promise.all(batch.map((name) => pool.classify(frames.get(name)!)));
    results.forEach((scores, i) => expect(scores).toEqual(reference.get(batch[i])));
    expect(pool.stats().workers.every((w) => w.served > 0)).toBe(true);
  });

  it("leaves the caller's array intact (the worker gets a transferred copy)", async () => {
    const rgb = frames.get('red')!;
    await pool.classify(rgb);
    expect(rgb.byteLength).toBe(NSFW_INPUT_BYTES);
    expect(Array.from(rgb.subarray(0, 3))).toEqual([220, 30, 30]);
  });

  it('rejects a frame of the wrong size', async () => {
    await expect(pool.classify(new Uint8Array(NSFW_INPUT_BYTES - 1))).rejects.toThrow(RangeError);
    await expect(pool.classify(new Uint8Array(100 * 100 * 3))).rejects.toThrow(/224×224 RGB \(150528 bytes\), got 30000 bytes/);
  });

  it('rejects at once with IMAGE_QUEUE_FULL past the queue limit, and still answers the rest', async () => {
    const rgb = frames.get('white')!;
    // submitted in one tick; once the two workers took their batches (4 of 8 for the
    // first, then 8 for the last one idle), QUEUE_LIMIT wait
    const accepted = Array.from({ length: QUEUE_LIMIT + 12 }, () => pool.classify(rgb));
    await Promise.resolve();
    expect(pool.stats().queued).toBe(QUEUE_LIMIT);
    await expect(pool.classify(rgb)).rejects.toMatchObject({ code: 'IMAGE_QUEUE_FULL', kind: 'unavailable' });
    const results = await Promise.all(accepted);
    expect(results.every((s) => sum(s) > 0.999)).toBe(true);
  });

  // An idle worker: one terminated inside onnxruntime's (synchronous) run can abort the
  // process (ModelWorkerPool.killWorker); a batch lost with its worker is the pool's own
  // test (model-worker-pool.int-spec.ts).
  it('keeps answering when a worker dies, and respawns it with the model converted again', async () => {
    await pool.killWorker(1);
    expect(await pool.classify(frames.get('coffee.png')!)).toEqual(reference.get('coffee.png'));
    expect(logs.some((l) => l.startsWith('warn: image worker 1 stopped'))).toBe(true);
    await until(() => pool.stats().workers.every((w) => w.ready), 45_000);
    expect(pool.stats().workers[1].restarts).toBe(1);
    const again = await Promise.all([pool.classify(frames.get('rocket.jpg')!), pool.classify(frames.get('rocket.jpg')!)]);
    expect(again).toEqual([reference.get('rocket.jpg'), reference.get('rocket.jpg')]);
  });
});
