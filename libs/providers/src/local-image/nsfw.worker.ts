/**
 * The image worker (nsfw-pool.ts starts it): nsfwjs on tfjs, one frame at a time. Nothing
 * from the parent's modules but types: the packages come by the absolute paths in
 * workerData, resolved in the parent.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { NsfwJobMessage, NsfwWorkerData, NsfwWorkerMessage } from './nsfw-worker.protocol';

type Tf = typeof import('@tensorflow/tfjs');
type Nsfwjs = typeof import('nsfwjs');

const data = workerData as NsfwWorkerData;
const post = (message: NsfwWorkerMessage) => parentPort!.postMessage(message);
const describe = (err: unknown) => (err as Error)?.stack ?? String(err);
const text = (args: unknown[]) => args.map((a) => (typeof a === 'string' ? a : describe(a))).join(' ');

// nsfwjs prints a banner with console.info on every load: noise in a service log.
console.log = console.info = console.debug = () => {};
console.warn = (...args: unknown[]) => post({ type: 'log', level: 'warn', message: text(args) });
console.error = (...args: unknown[]) => post({ type: 'log', level: 'error', message: text(args) });

async function main(): Promise<void> {
  const tf = require(data.tfjsPath) as Tf;
  require(data.wasmBackendPath);
  const nsfwjs = require(data.nsfwjsPath) as Nsfwjs;
  try {
    await tf.setBackend(data.backend);
  } catch (err) {
    console.warn(`tfjs could not switch to ${data.backend}: ${describe(err)}`);
  }
  await tf.ready();
  const backend = String(tf.getBackend());
  const simd = backend === 'wasm' && (await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')) === true;
  post({ type: 'backend', backend, simd });

  // nsfwjs 4.4's CommonJS build imports its bundled weights through __importStar, which
  // copies a module's own keys one by one: for a weight shard, a 5.6 MB base64 string,
  // that is millions of property bindings and about 20 s of CPU per worker. nsfwjs first
  // looks for the bundles on the global object (its documented browserify route), so
  // each is required once and put there as it is.
  const bundles = data.modelBundlesPath;
  const global = globalThis as Record<string, unknown>;
  global.model = require(join(bundles, 'model.min.js'));
  for (const file of readdirSync(bundles)) {
    const shard = /^(group\d+-shard\d+of\d+)\.min\.js$/.exec(file);
    if (shard) global[shard[1].replace(/-/g, '_')] = require(join(bundles, file));
  }
  const model = await nsfwjs.load(data.modelName, { type: 'graph' });
  const size = data.inputSize;

  // The parent sends one job at a time, so jobs never overlap here.
  async function classify(job: NsfwJobMessage): Promise<void> {
    let input: ReturnType<Tf['tensor3d']> | null = null;
    try {
      input = tf.tensor3d(job.pixels, [size, size, 3], 'int32');
      const predictions = await model.classify(input, 5);
      input.dispose();
      input = null;
      post({ type: 'result', id: job.id, predictions, tensors: tf.memory().numTensors });
    } catch (err) {
      input?.dispose();
      post({ type: 'job-error', id: job.id, message: describe(err), tensors: tf.memory().numTensors });
    }
  }
  parentPort!.on('message', (job: NsfwJobMessage) => {
    void classify(job);
  });
  post({ type: 'ready', tensors: tf.memory().numTensors });
}

main().catch((err: unknown) => post({ type: 'init-error', message: describe(err) }));
