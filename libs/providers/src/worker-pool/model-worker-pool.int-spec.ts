import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ModelWorkerPool } from './model-worker-pool';

/** slow-load.worker.fixtures.ts: a model that loads for `loadMs`, synchronously, doubles
 * numbers in `runMs`, and is freed on close */
const SLOW_LOAD_WORKER = path.join(__dirname, 'slow-load.worker.fixtures');

type TestMessage = { type: 'ready' } | { type: 'result'; id: number; values: number[] };

class SlowLoadPool extends ModelWorkerPool<number, number, TestMessage> {
  constructor(workerData: { loadMs: number; runMs?: number; closedFile: string }) {
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
  protected outputs(m: Extract<TestMessage, { type: 'result' }>): number[] {
    return m.values;
  }
  double(x: number): Promise<number> {
    return this.submit(x);
  }
  workerStats() {
    return this.slotStats();
  }
}

const closedFileIn = (prefix: string) => path.join(fs.mkdtempSync(path.join(os.tmpdir(), prefix)), 'closed');

describe('ModelWorkerPool with a worker that dies in the middle of a batch', () => {
  it("rejects that batch with the kind's crashed code, respawns the worker and answers on", async () => {
    const pool = new SlowLoadPool({ loadMs: 10, runMs: 1_500, closedFile: closedFileIn('pool-crash-') });
    try {
      await pool.ready();
      const inFlight = pool.double(21);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(pool.workerStats()[0].busy).toBe(true);
      await pool.killWorker(0);
      await expect(inFlight).rejects.toMatchObject({ code: 'TEST_CRASHED' });
      expect(pool.state).toBe('ready');
      const deadline = Date.now() + 10_000;
      while (!pool.workerStats()[0].ready && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(pool.workerStats()[0]).toMatchObject({ ready: true, restarts: 1 });
      expect(await pool.double(3)).toBe(6);
    } finally {
      await pool.close();
    }
  }, 20_000);
});

describe('ModelWorkerPool closed while a worker loads its model', () => {
  it('lets the worker finish its load and free the model, never terminating it inside the load', async () => {
    // longer than the 2 s a worker busy in a batch is given: the old close terminated this
    // worker inside its (here simulated) native load, which can abort the process with koffi
    const closedFile = closedFileIn('pool-close-');
    const pool = new SlowLoadPool({ loadMs: 3_500, closedFile });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await pool.close();
    expect(fs.existsSync(closedFile)).toBe(true);
    expect(Date.now() - started).toBeGreaterThan(2_500);
    await expect(pool.ready()).rejects.toThrow('The test model is closed');
  }, 20_000);
});
