/**
 * Runs the tiny converted graph of nsfw-onnx.fixtures.ts in onnxruntime and posts its
 * output: in a worker thread, because onnxruntime-node's tensors cannot be made inside
 * jest's sandbox (its Float32Array is not the addon's). nsfw-onnx.int-spec.ts starts it.
 */
import { parentPort } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';
import { NSFW_ONNX_INPUT, NSFW_ONNX_OUTPUT, nsfwOnnxModel } from './nsfw-onnx';
import { tinyModel } from './nsfw-onnx.fixtures';

async function main(): Promise<void> {
  const { model, shards } = tinyModel();
  const session = await ort.InferenceSession.create(nsfwOnnxModel(model, shards), { logSeverityLevel: 3 });
  // one 4×4 picture, every pixel (r, g, b) = (1, 2, 3), laid out channel by channel
  const pixels = new Float32Array(3 * 16);
  pixels.fill(1, 0, 16).fill(2, 16, 32).fill(3, 32, 48);
  const out = await session.run({ [NSFW_ONNX_INPUT]: new ort.Tensor('float32', pixels, [1, 3, 4, 4]) });
  const y = out[NSFW_ONNX_OUTPUT];
  parentPort!.postMessage({ dims: y.dims, data: Array.from(y.data as Float32Array) });
  await session.release();
}

main().catch((err: unknown) => parentPort!.postMessage({ error: String((err as Error)?.stack ?? err) }));
