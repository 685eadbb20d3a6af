import { dirname, join } from 'path';
import { BackendReport } from './nsfw-pool.rules';
import { NsfwPrediction } from './nsfw-scores';

/** What each worker is started with: absolute module paths resolved in the parent, so the
 * worker finds the same packages whether the parent runs from dist or from sources. */
export interface NsfwWorkerData {
  tfjsPath: string;
  wasmBackendPath: string;
  nsfwjsPath: string;
  backend: string;
  modelName: string;
  /** The folder of the model's bundled JSON and weight shards inside the nsfwjs package. */
  modelBundlesPath: string;
  inputSize: number;
}

/** Parent -> worker: one frame; `pixels` is transferred, not copied. */
export interface NsfwJobMessage {
  id: number;
  pixels: Uint8Array;
}

/** Worker -> parent. `tensors` is tf.memory().numTensors, reported so leaks are visible. */
export type NsfwWorkerMessage =
  | ({ type: 'backend' } & BackendReport)
  | { type: 'ready'; tensors: number }
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number; predictions: NsfwPrediction[]; tensors: number }
  | { type: 'job-error'; id: number; message: string; tensors: number }
  | { type: 'log'; level: 'warn' | 'error'; message: string };

/** `modelDir`: the model's folder under nsfwjs's dist/models (e.g. mobilenet_v2_mid). */
export function nsfwWorkerData(o: { backend: string; modelName: string; modelDir: string; inputSize: number }): NsfwWorkerData {
  // tfjs is resolved from nsfwjs's own folder: the worker must register the wasm backend
  // on the very tfjs instance nsfwjs uses.
  const nsfwjsPath = require.resolve('nsfwjs');
  const from = { paths: [dirname(nsfwjsPath)] };
  return {
    tfjsPath: require.resolve('@tensorflow/tfjs', from),
    wasmBackendPath: require.resolve('@tensorflow/tfjs-backend-wasm', from),
    nsfwjsPath,
    modelBundlesPath: join(dirname(nsfwjsPath), '..', 'models', o.modelDir),
    backend: o.backend,
    modelName: o.modelName,
    inputSize: o.inputSize,
  };
}

/**
 * The worker's code, run with `new Worker(source, { eval: true })`. A string rather than a
 * file: the service runs compiled JS from dist while jest runs the TS sources, and a worker
 * file path would exist in only one of them. Plain CommonJS, no TS, nothing from the parent
 * module's scope.
 */
export const NSFW_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('worker_threads');
const { readdirSync } = require('fs');
const { join } = require('path');
const post = (message, transfer) => parentPort.postMessage(message, transfer);
const describe = (err) => (err && err.stack) || String(err);
const text = (args) => args.map((a) => (typeof a === 'string' ? a : describe(a))).join(' ');

// nsfwjs prints a banner with console.info on every load: noise in a service log.
console.log = console.info = console.debug = () => {};
console.warn = (...args) => post({ type: 'log', level: 'warn', message: text(args) });
console.error = (...args) => post({ type: 'log', level: 'error', message: text(args) });

async function main() {
  const tf = require(workerData.tfjsPath);
  require(workerData.wasmBackendPath);
  const nsfwjs = require(workerData.nsfwjsPath);
  try {
    await tf.setBackend(workerData.backend);
  } catch (err) {
    console.warn('tfjs could not switch to ' + workerData.backend + ': ' + describe(err));
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
  const bundles = workerData.modelBundlesPath;
  globalThis.model = require(join(bundles, 'model.min.js'));
  for (const file of readdirSync(bundles)) {
    const shard = /^(group\d+-shard\d+of\d+)\.min\.js$/.exec(file);
    if (shard) globalThis[shard[1].replace(/-/g, '_')] = require(join(bundles, file));
  }
  const model = await nsfwjs.load(workerData.modelName, { type: 'graph' });
  const size = workerData.inputSize;

  // The parent sends one job at a time, so jobs never overlap here.
  async function classify(job) {
    let input = null;
    try {
      input = tf.tensor3d(job.pixels, [size, size, 3], 'int32');
      const predictions = await model.classify(input, 5);
      input.dispose();
      input = null;
      post({ type: 'result', id: job.id, predictions, tensors: tf.memory().numTensors });
    } catch (err) {
      if (input) input.dispose();
      post({ type: 'job-error', id: job.id, message: describe(err), tensors: tf.memory().numTensors });
    }
  }
  parentPort.on('message', (job) => {
    void classify(job);
  });
  post({ type: 'ready', tensors: tf.memory().numTensors });
}

main().catch((err) => post({ type: 'init-error', message: describe(err) }));
`;
