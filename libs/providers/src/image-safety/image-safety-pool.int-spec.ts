import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAFETY_INPUT_BYTES, SafetyPool } from './image-safety-pool';
import { SafetyScores } from './image-safety-scores';

jest.setTimeout(60_000);

const QUEUE_LIMIT = 20;
const solid = (r: number, g: number, b: number) => {
  const rgb = new Uint8Array(SAFETY_INPUT_BYTES);
  for (let i = 0; i < rgb.length; i += 3) rgb.set([r, g, b], i);
  return rgb;
};
const sum = (s: SafetyScores) => s.nsfl + s.nsfw + s.sfw;

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('SafetyPool (image-safety-classifier-s on onnxruntime-node, 2 worker threads)', () => {
  let pool: SafetyPool;
  const logs: string[] = [];
  const white = solid(255, 255, 255);
  const blue = solid(20, 40, 200);
  let reference: SafetyScores;

  beforeAll(async () => {
    pool = SafetyPool.start({ workers: 2, queueLimit: QUEUE_LIMIT, log: (level, msg) => logs.push(`${level}: ${msg}`) });
    await pool.ready();
    reference = await pool.classify(white);
  });
  afterAll(() => pool?.close());

  it('is ready with both workers, and gives three probabilities summing to 1', () => {
    expect(pool.state).toBe('ready');
    expect(pool.stats().workers.map((w) => w.ready)).toEqual([true, true]);
    expect(sum(reference)).toBeCloseTo(1, 4);
    expect(reference.sfw).toBeGreaterThan(0.8);
  });

  it('frames submitted together leave in batches and each gets its own scores, whichever worker reads it', async () => {
    const frames = Array.from({ length: 12 }, (_, i) => (i % 2 ? blue : white));
    const [w, b] = [reference, await pool.classify(blue)];
    const results = await Promise.all(frames.map((f) => pool.classify(f)));
    results.forEach((s, i) => {
      const expected = i % 2 ? b : w;
      // batched or alone, the same frame scores the same (float noise aside)
      expect(Math.abs(s.nsfw - expected.nsfw)).toBeLessThan(1e-5);
      expect(Math.abs(s.nsfl - expected.nsfl)).toBeLessThan(1e-5);
    });
    expect(pool.stats().workers.every((x) => x.served > 0)).toBe(true);
  });

  it("leaves the caller's frame intact and refuses a frame of the wrong size", async () => {
    await pool.classify(blue);
    expect(Array.from(blue.subarray(0, 3))).toEqual([20, 40, 200]);
    await expect(pool.classify(new Uint8Array(SAFETY_INPUT_BYTES - 1))).rejects.toThrow(/224×224 RGB \(150528 bytes\), got 150527 bytes/);
  });

  it('rejects at once with IMAGE_QUEUE_FULL past the queue limit, and answers the rest', async () => {
    // submitted in one tick; once the two workers took their batches (4 of 8 for the
    // first, then 8 for the last one idle), QUEUE_LIMIT wait
    const accepted = Array.from({ length: QUEUE_LIMIT + 12 }, () => pool.classify(white));
    await Promise.resolve();
    expect(pool.queued()).toBe(QUEUE_LIMIT);
    await expect(pool.classify(white)).rejects.toMatchObject({ code: 'IMAGE_QUEUE_FULL', kind: 'unavailable' });
    expect((await Promise.all(accepted)).every((s) => sum(s) > 0.999)).toBe(true);
  });

  // An idle worker: one terminated inside onnxruntime's (synchronous) run can abort the
  // process, as any native addon can (ModelWorkerPool.killWorker). What happens to a batch
  // of a worker that dies is the pool's, tested with the nsfwjs kind.
  it('keeps answering when a worker dies, and respawns it', async () => {
    await pool.killWorker(1);
    expect((await pool.classify(white)).sfw).toBeCloseTo(reference.sfw, 4);
    await until(() => pool.stats().workers.every((w) => w.ready), 20_000);
    expect(pool.stats().workers[1].restarts).toBe(1);
    expect(logs.some((l) => l.startsWith('warn: image safety worker 1 stopped'))).toBe(true);
    expect((await Promise.all([pool.classify(blue), pool.classify(blue)])).every((s) => sum(s) > 0.999)).toBe(true);
  });

  it('closes gracefully with frames in flight: they are rejected as closed, the process survives', async () => {
    const other = SafetyPool.start({ workers: 1 });
    await other.ready();
    const settled = Promise.allSettled(Array.from({ length: 6 }, () => other.classify(white)));
    await new Promise((r) => setImmediate(r)); // a batch reaches the worker
    await other.close();
    for (const r of await settled) expect(r).toMatchObject({ status: 'rejected', reason: { code: 'IMAGE_MODEL_UNAVAILABLE' } });
  });
});

describe('SafetyPool without its model', () => {
  it('refuses to start with IMAGE_MODEL_MISSING, naming the command that installs it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cds-no-model-'));
    try {
      expect(() => SafetyPool.start({ workers: 1, modelDir: dir })).toThrow(expect.objectContaining({ code: 'IMAGE_MODEL_MISSING', kind: 'unavailable' }));
      expect(() => SafetyPool.start({ workers: 1, modelDir: dir })).toThrow(/npm run models:fetch/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with a corrupt model file, fails its start with IMAGE_MODEL_UNAVAILABLE and answers 503s, not a crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cds-bad-model-'));
    const logs: string[] = [];
    writeFileSync(join(dir, 'image-safety-classifier-s.onnx'), 'not an onnx graph');
    writeFileSync(join(dir, 'manifest.json'), '{}');
    const pool = SafetyPool.start({ workers: 1, modelDir: dir, log: (level, msg) => logs.push(`${level}: ${msg}`) });
    try {
      await expect(pool.ready()).rejects.toMatchObject({ code: 'IMAGE_MODEL_UNAVAILABLE' });
      expect(pool.state).toBe('failed');
      await expect(pool.classify(solid(1, 2, 3))).rejects.toMatchObject({ code: 'IMAGE_MODEL_UNAVAILABLE', kind: 'unavailable' });
      expect(logs.some((l) => l.startsWith('error: The image safety model failed to load'))).toBe(true);
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
