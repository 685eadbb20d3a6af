/**
 * A worker whose "model" takes `loadMs` to load, synchronously, as a native load does (the
 * thread reads no message meanwhile); on `close` it writes `closedFile` and ends, as a
 * model worker frees its model. model-worker-pool.int-spec.ts starts it.
 */
import * as fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const data = workerData as { loadMs: number; closedFile: string };
const until = Date.now() + data.loadMs;
while (Date.now() < until);
parentPort!.postMessage({ type: 'ready' });
parentPort!.on('message', (m: { type: string }) => {
  if (m.type === 'close') {
    fs.writeFileSync(data.closedFile, 'freed');
    parentPort!.close();
  }
});
