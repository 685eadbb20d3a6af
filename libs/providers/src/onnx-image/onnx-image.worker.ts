/**
 * An image classifier's worker (the image safety pool and the nsfwjs pool start it):
 * onnxruntime-node on its CPU provider, one intra-op thread: the pool has a worker per
 * core, and ORT's own thread pool on top would make them fight. The graph takes
 * `[batch, 3, size, size]` float32 RGB, so the worker lays the bytes out channel by
 * channel, scaled as the model wants them.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { nsfwOnnxModel, TfjsGraphModel } from './nsfw-onnx';
import type { OnnxImageModelSource, OnnxImageWorkerData, OnnxImageWorkerMessage, OnnxImageWorkerRequest } from './onnx-image-worker.protocol';

type Ort = typeof import('onnxruntime-node');

const data = workerData as OnnxImageWorkerData;
const post = (message: OnnxImageWorkerMessage, transfer?: ArrayBuffer[]) => parentPort!.postMessage(message, transfer);
const describe = (err: unknown) => (err as Error)?.stack ?? String(err);

/** The ONNX file's path, or the converted graph's bytes. */
function modelOf(source: OnnxImageModelSource): string | Uint8Array {
  if (source.kind === 'file') return source.path;
  // nsfwjs's browserify bundles: the model JSON, and each weight shard as a base64 string.
  const model = require(join(source.bundlesPath, 'model.min.js')) as TfjsGraphModel;
  const files = new Set(readdirSync(source.bundlesPath));
  const shards = model.weightsManifest.flatMap((g) =>
    g.paths.map((p) => {
      if (!files.has(`${p}.min.js`)) throw new Error(`nsfwjs has no weight shard ${p} in ${source.bundlesPath}`);
      return Buffer.from(require(join(source.bundlesPath, `${p}.min.js`)) as string, 'base64');
    }),
  );
  return nsfwOnnxModel(model, shards);
}

async function main(): Promise<void> {
  const ort = require(data.onnxruntimePath) as Ort;
  const options = {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  } as const;
  const model = modelOf(data.model);
  let session: Awaited<ReturnType<Ort['InferenceSession']['create']>> | null =
    typeof model === 'string' ? await ort.InferenceSession.create(model, options) : await ort.InferenceSession.create(model, options);
  const input = session.inputNames[0];
  const output = session.outputNames[0];
  const { size, pixelDivisor } = data;
  const plane = size * size;

  // HWC bytes to CHW floats: what the graph's input is.
  function tensorOf(pixels: Uint8Array, frames: number) {
    const floats = new Float32Array(frames * 3 * plane);
    for (let f = 0; f < frames; f++) {
      const at = f * plane * 3;
      for (let i = 0; i < plane; i++) {
        floats[at + i] = pixels[at + i * 3] / pixelDivisor;
        floats[at + plane + i] = pixels[at + i * 3 + 1] / pixelDivisor;
        floats[at + 2 * plane + i] = pixels[at + i * 3 + 2] / pixelDivisor;
      }
    }
    return new ort.Tensor('float32', floats, [frames, 3, size, size]);
  }

  // The parent sends one batch at a time, so runs never overlap here; `running` lets a
  // close wait for the run in flight (a session released under a run would crash).
  let running = Promise.resolve();
  async function classify(req: Extract<OnnxImageWorkerRequest, { type: 'classify' }>): Promise<void> {
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

  parentPort!.on('message', (req: OnnxImageWorkerRequest) => {
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
