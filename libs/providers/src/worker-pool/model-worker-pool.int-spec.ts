import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ModelWorkerPool } from './model-worker-pool';

/** slow-load.worker.fixtures.ts: a model that loads for `loadMs`, synchronously, and is freed on close */
const SLOW_LOAD_WORKER = path.join(__dirname, 'slow-load.worker.fixtures');

class SlowLoadPool extends ModelWorkerPool<number, number, { type: 'ready' } | { type: 'result'; id: number }> {
  constructor(workerData: { loadMs: number; closedFile: string }) {
    super(
      {
        label: 'test',
        item: 'number',
        title: 'The test model',
        file: SLOW_LOAD_WORKER,
        workerData,
        codes: { unavailable: 'TEST_UNAVAILABLE', queueFull: 'TEST_QUEUE_FULL', crashed: 'TEST_CRASHED' },
        closeMessage: { type: 'close' },
      },
      { workers: 1, queueLimit: 1, log: () => undefined },
    );
    this.spawnAll();
  }
  protected batchSize(): number {
    return 1;
  }
  protected request(id: number, batch: number[]) {
    return { message: { type: 'run', id, batch } };
  }
  protected outputs(): number[] {
    return [];
  }
}

describe('ModelWorkerPool closed while a worker loads its model', () => {
  it('lets the worker finish its load and free the model, never terminating it inside the load', async () => {
    // longer than the 2 s a worker busy in a batch is given: the old close terminated this
    // worker inside its (here simulated) native load, which can abort the process with koffi
    const closedFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pool-close-')), 'closed');
    const pool = new SlowLoadPool({ loadMs: 3_500, closedFile });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await pool.close();
    expect(fs.existsSync(closedFile)).toBe(true);
    expect(Date.now() - started).toBeGreaterThan(2_500);
    await expect(pool.ready()).rejects.toThrow('The test model is closed');
  }, 20_000);
});
