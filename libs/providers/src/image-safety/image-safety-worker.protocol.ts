import { join } from 'path';

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

/** The worker's file (image-safety.worker.ts), without its extension. */
export const SAFETY_WORKER_FILE = join(__dirname, 'image-safety.worker');
