import { join } from 'path';

/** Where a worker gets its graph: an ONNX file, or nsfwjs's bundled tfjs model converted
 * in memory (nsfw-onnx.ts). */
export type OnnxImageModelSource = { kind: 'file'; path: string } | { kind: 'nsfwjs'; bundlesPath: string };

/** What each worker is started with: absolute paths resolved in the parent, so the worker
 * finds the same files whether the parent runs from dist or from sources. */
export interface OnnxImageWorkerData {
  onnxruntimePath: string;
  model: OnnxImageModelSource;
  /** Side of the square RGB frames. */
  size: number;
  /** Each 0..255 byte divided by this is what the graph reads (1: the graph normalises itself). */
  pixelDivisor: number;
}

/** Parent -> worker: a batch of frames, size² × 3 bytes each (RGB, rows top to bottom),
 * one after the other in `pixels` (transferred, not copied); or the order to free the
 * model and stop. */
export type OnnxImageWorkerRequest = { type: 'classify'; id: number; frames: number; pixels: Uint8Array } | { type: 'close' };

/** Worker -> parent. `probabilities`: frames × the model's classes, frame after frame. */
export type OnnxImageWorkerMessage =
  | { type: 'ready' }
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number; probabilities: Float32Array }
  | { type: 'job-error'; id: number; message: string };

/** The worker's file (onnx-image.worker.ts), without its extension. */
export const ONNX_IMAGE_WORKER_FILE = join(__dirname, 'onnx-image.worker');
