/** What each worker is started with: absolute paths resolved in the parent, so the worker
 * finds the same files whether the parent runs from dist or from sources. */
export interface SafetyWorkerData {
  onnxruntimePath: string;
  modelPath: string;
  /** Side of the square RGB frames. */
  size: number;
}

/** Parent -> worker: a batch of frames, size² × 3 bytes each (RGB, rows top to bottom),
 * one after the other in `pixels` (transferred, not copied); or the order to free the
 * model and stop. */
export type SafetyWorkerRequest = { type: 'classify'; id: number; frames: number; pixels: Uint8Array } | { type: 'close' };

/** Worker -> parent. `probabilities`: frames × 3 floats, NSFL, NSFW, SFW per frame. */
export type SafetyWorkerMessage =
  | { type: 'ready' }
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number; probabilities: Float32Array }
  | { type: 'job-error'; id: number; message: string };

/**
 * The worker's code, run with `new Worker(source, { eval: true })`: a string, as the other
 * model workers, so that dist and the TS sources run the same worker. Plain CommonJS.
 *
 * onnxruntime-node on its CPU provider, one intra-op thread: the pool has a worker per
 * core, and ORT's own thread pool on top would make them fight. The graph takes
 * `[batch, 3, size, size]` float32 RGB in 0..255 (it normalises itself), so the worker
 * only lays the bytes out channel by channel.
 */
export const SAFETY_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('worker_threads');
const post = (message, transfer) => parentPort.postMessage(message, transfer);
const describe = (err) => (err && err.stack) || String(err);

async function main() {
  const ort = require(workerData.onnxruntimePath);
  let session = await ort.InferenceSession.create(workerData.modelPath, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const input = session.inputNames[0];
  const output = session.outputNames[0];
  const size = workerData.size;
  const plane = size * size;

  // HWC bytes to CHW floats: what the graph's input is.
  function tensorOf(pixels, frames) {
    const data = new Float32Array(frames * 3 * plane);
    for (let f = 0; f < frames; f++) {
      const src = f * plane * 3;
      const dst = f * plane * 3;
      for (let i = 0; i < plane; i++) {
        data[dst + i] = pixels[src + i * 3];
        data[dst + plane + i] = pixels[src + i * 3 + 1];
        data[dst + 2 * plane + i] = pixels[src + i * 3 + 2];
      }
    }
    return new ort.Tensor('float32', data, [frames, 3, size, size]);
  }

  // The parent sends one batch at a time, so runs never overlap here; \`running\` lets a
  // close wait for the run in flight (a session released under a run would crash).
  let running = Promise.resolve();
  async function classify(req) {
    try {
      if (!session) throw new Error('the model was freed');
      if (req.pixels.length !== req.frames * plane * 3) throw new Error('expected ' + req.frames + ' frames of ' + plane * 3 + ' bytes, got ' + req.pixels.length + ' bytes');
      const out = await session.run({ [input]: tensorOf(req.pixels, req.frames) });
      const probabilities = new Float32Array(out[output].data);
      post({ type: 'result', id: req.id, probabilities }, [probabilities.buffer]);
    } catch (err) {
      post({ type: 'job-error', id: req.id, message: describe(err) });
    }
  }

  parentPort.on('message', (req) => {
    if (req.type === 'close') {
      running
        .then(() => session && session.release())
        .catch(() => undefined)
        .finally(() => {
          session = null;
          parentPort.close();
        });
      return;
    }
    running = classify(req);
  });
  post({ type: 'ready' });
}

main().catch((err) => post({ type: 'init-error', message: describe(err) }));
`;
