import { NSFW_INPUT_BYTES, NsfwPool } from './nsfw-pool';

// No model is loaded here: the pool refuses the backend before that, so this start is cheap.
describe('NsfwPool on a slow backend', () => {
  it('refuses to start, failing the frames that waited for it', async () => {
    const logs: string[] = [];
    const pool = NsfwPool.start({ workers: 1, queueLimit: 1, backend: 'cpu', log: (level, msg) => logs.push(`${level}: ${msg}`) });
    try {
      expect(pool.state).toBe('loading');
      const waiting = pool.classify(new Uint8Array(NSFW_INPUT_BYTES));
      // the queue (1) is full while the model loads
      await expect(pool.classify(new Uint8Array(NSFW_INPUT_BYTES))).rejects.toMatchObject({ code: 'IMAGE_QUEUE_FULL' });

      await expect(pool.ready()).rejects.toThrow(/cannot start: tfjs runs on the "cpu" backend, not "wasm"/);
      expect(pool.state).toBe('failed');
      await expect(waiting).rejects.toMatchObject({ code: 'IMAGE_MODEL_UNAVAILABLE' });
      await expect(pool.classify(new Uint8Array(NSFW_INPUT_BYTES))).rejects.toMatchObject({ code: 'IMAGE_MODEL_UNAVAILABLE' });
      expect(logs.some((l) => l.startsWith('error: The image classifier cannot start'))).toBe(true);
    } finally {
      await pool.close();
    }
  }, 30_000);
});
