/**
 * A worker whose "model" takes `loadMs` to load, synchronously, as a native load does (the
 * thread reads no message meanwhile); a `run` answers each number doubled after `runMs`
 * (a timer, so the worker can be terminated while busy: no native call is in the way); on
 * `close` it writes `closedFile` and ends, as a model worker frees its model.
 * model-worker-pool.int-spec.ts starts it.
 */
import * as fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const data = workerData as { loadMs: number; runMs?: number; closedFile: string };
const until = Date.now() + data.loadMs;
while (Date.now() < until);
parentPort!.postMessage({ type: 'ready' });
parentPort!.on('message', (m: { type: string; id?: number; batch?: number[] }) => {
  if (m.type === 'run') {
    setTimeout(() => parentPort!.postMessage({ type: 'result', id: m.id, values: m.batch!.map((x) => x * 2) }), data.runMs ?? 0);
  } else if (m.type === 'close') {
    fs.writeFileSync(data.closedFile, 'freed');
    parentPort!.close();
  }
});
