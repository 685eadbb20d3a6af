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

/** The worker's file (nsfw.worker.ts), without its extension. */
export const NSFW_WORKER_FILE = join(__dirname, 'nsfw.worker');
