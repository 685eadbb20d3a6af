import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalImageModel } from './local-image.model';

jest.setTimeout(60_000);
const frame = () => ({ rgb: new Uint8Array(224 * 224 * 3).fill(200), padded: new Uint8Array(224 * 224 * 3).fill(200) });

describe('LocalImageModel', () => {
  it('closed while its models are loading, it logs no failure', async () => {
    const logs: string[] = [];
    const model = new LocalImageModel({ workers: 1, log: (level, message) => logs.push(`${level}: ${message}`) });
    model.start();
    const scoring = model.classify(frame());
    await model.close();
    await expect(scoring).rejects.toThrow(/closed/);
    // The rejection handlers of start() run on the same settled promises: let them run.
    await new Promise((r) => setImmediate(r));
    expect(logs.filter((l) => l.startsWith('error'))).toEqual([]);
    expect(model.state).toBe('idle');
  });

  it('scores a frame with both models once they are loaded', async () => {
    const model = new LocalImageModel({ workers: 1, log: () => undefined });
    try {
      const scores = await model.classify(frame());
      expect(model.state).toBe('ready');
      expect(scores.nsfw.neutral + scores.nsfw.drawing + scores.nsfw.porn + scores.nsfw.hentai + scores.nsfw.sexy).toBeCloseTo(1, 3);
      expect(scores.safety.nsfl + scores.safety.nsfw + scores.safety.sfw).toBeCloseTo(1, 3);
    } finally {
      await model.close();
    }
  });

  it('without the image safety model: logs IMAGE_MODEL_MISSING at start and answers it as a 503 for every frame, never nudity alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cds-no-image-model-'));
    const logs: string[] = [];
    const model = new LocalImageModel({ workers: 1, log: (level, message) => logs.push(`${level}: ${message}`), safetyModelDir: dir });
    try {
      model.start();
      expect(model.state).toBe('failed');
      expect(logs.filter((l) => l.startsWith('error'))).toEqual([
        expect.stringMatching(/^error: IMAGE_MODEL_MISSING: .*npm run models:fetch.*image checks will answer 503/),
      ]);
      for (let i = 0; i < 2; i++) {
        await expect(model.classify(frame())).rejects.toMatchObject({
          kind: 'unavailable',
          code: 'IMAGE_MODEL_MISSING',
          message: expect.stringContaining('npm run models:fetch'),
        });
      }
    } finally {
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
