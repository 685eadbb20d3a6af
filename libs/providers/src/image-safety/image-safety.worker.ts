/**
 * The image safety worker (image-safety-pool.ts starts it): onnxruntime-node on its CPU
 * provider, one intra-op thread: the pool has a worker per core, and ORT's own thread pool
 * on top would make them fight. The graph takes `[batch, 3, size, size]` float32 RGB in
 * 0..255 (it normalises itself), so the worker only lays the bytes out channel by channel.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { SafetyWorkerData, SafetyWorkerMessage, SafetyWorkerRequest } from './image-safety-worker.protocol';

type Ort = typeof import('onnxruntime-node');

const data = workerData as SafetyWorkerData;
const post = (message: SafetyWorkerMessage, transfer?: ArrayBuffer[]) => parentPort!.postMessage(message, transfer);
const describe = (err: unknown) => (err as Error)?.stack ?? String(err);

async function main(): Promise<void> {
  const ort = require(data.onnxruntimePath) as Ort;
  let session: Awaited<ReturnType<Ort['InferenceSession']['create']>> | null = await ort.InferenceSession.create(data.modelPath, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const input = session.inputNames[0];
  const output = session.outputNames[0];
  const size = data.size;
  const plane = size * size;

  // HWC bytes to CHW floats: what the graph's input is.
  function tensorOf(pixels: Uint8Array, frames: number) {
    const floats = new Float32Array(frames * 3 * plane);
    for (let f = 0; f < frames; f++) {
      const at = f * plane * 3;
      for (let i = 0; i < plane; i++) {
        floats[at + i] = pixels[at + i * 3];
        floats[at + plane + i] = pixels[at + i * 3 + 1];
        floats[at + 2 * plane + i] = pixels[at + i * 3 + 2];
      }
    }
    return new ort.Tensor('float32', floats, [frames, 3, size, size]);
  }

  // The parent sends one batch at a time, so runs never overlap here; `running` lets a
  // close wait for the run in flight (a session released under a run would crash).
  let running = Promise.resolve();
  async function classify(req: Extract<SafetyWorkerRequest, { type: 'classify' }>): Promise<void> {
    try {
      if (!session) throw new Error('the model was freed');
      if (req.pixels.length !== req.frames * plane * 3) throw new Error(`expected ${req.frames} frames of ${plane * 3} bytes, got ${req.pixels.length} bytes`);
      const out = await session.run({ [input]: tensorOf(req.pixels, req.frames) });
      const probabilities = new Float32Array(out[output].data as Float32Array);
      post({ type: 'result', id: req.id, probabilities }, [probabilities.buffer]);
    } catch (err) {
      post({ type: 'job-error', id: req.id, message: describe(err) });
    }
  }

  parentPort!.on('message', (req: SafetyWorkerRequest) => {
    if (req.type === 'close') {
      running
        .then(() => session?.release())
        .catch(() => undefined)
        .finally(() => {
          session = null;
          parentPort!.close();
        });
      return;
    }
    running = classify(req);
  });
  post({ type: 'ready' });
}

main().catch((err: unknown) => post({ type: 'init-error', message: describe(err) }));
