import { ModelWorkerPool, WorkerPoolLogLevel } from '../worker-pool/model-worker-pool';
import { ImageSafetyModelFiles, locateImageSafetyModel } from './image-safety-model-files';
import { MAX_SAFETY_BATCH, safetyBatchSize } from './image-safety-pool.rules';
import { SafetyScores, safetyScoresAt } from './image-safety-scores';
import { SAFETY_WORKER_FILE, SafetyWorkerData, SafetyWorkerMessage, SafetyWorkerRequest } from './image-safety-worker.protocol';

/** The side of the square RGB frame the model takes (its graph: `[batch, 3, 224, 224]`). */
export const SAFETY_INPUT_SIZE = 224;
/** Bytes of one frame: SAFETY_INPUT_SIZE² pixels × 3 channels (RGB, no alpha). */
export const SAFETY_INPUT_BYTES = SAFETY_INPUT_SIZE * SAFETY_INPUT_SIZE * 3;

export const DEFAULT_SAFETY_QUEUE_LIMIT = 256;

export interface SafetyPoolOptions {
  /** Worker threads, each with its own session (~0.3 s to load, ~100 MiB). */
  workers: number;
  /** models/image-safety by default (see defaultImageSafetyModelDir). */
  modelDir?: string;
  /** Frames waiting for a worker beyond which `classify` rejects at once (IMAGE_QUEUE_FULL). */
  queueLimit?: number;
  log?: (level: WorkerPoolLogLevel, msg: string) => void;
}

/**
 * OwenElliott/image-safety-classifier-s (ONNX, three classes: NSFL, NSFW, SFW) on
 * onnxruntime-node in a pool of worker threads (ModelWorkerPool). Frames submitted in the
 * same tick (an animation's) leave together as one batch for the idle worker busy least.
 * Frames must be prepared as the model's own package prepares them: `padFrame` in
 * @cds/media (the picture fitted inside the square, over a blurred stretched copy).
 */
export class SafetyPool extends ModelWorkerPool<Uint8Array, SafetyScores, SafetyWorkerMessage> {
  readonly inputSize = SAFETY_INPUT_SIZE;
  readonly model: ImageSafetyModelFiles;

  private constructor(o: SafetyPoolOptions, model: ImageSafetyModelFiles) {
    const workerData: SafetyWorkerData = { onnxruntimePath: require.resolve('onnxruntime-node'), modelPath: model.modelPath, size: SAFETY_INPUT_SIZE };
    super(
      {
        label: 'image safety',
        item: 'image',
        title: 'The image safety classifier',
        file: SAFETY_WORKER_FILE,
        workerData,
        codes: { unavailable: 'IMAGE_MODEL_UNAVAILABLE', queueFull: 'IMAGE_QUEUE_FULL', crashed: 'IMAGE_WORKER_CRASHED' },
        closeMessage: { type: 'close' } satisfies SafetyWorkerRequest,
      },
      { workers: o.workers, queueLimit: o.queueLimit ?? DEFAULT_SAFETY_QUEUE_LIMIT, log: o.log },
    );
    this.model = model;
    this.batchLookahead = MAX_SAFETY_BATCH;
  }

  /** Checks the model file (throws IMAGE_MODEL_MISSING, naming `npm run models:fetch`) and
   * starts the workers; the model loads in the background (see `ready`). */
  static start(o: SafetyPoolOptions): SafetyPool {
    const pool = new SafetyPool(o, locateImageSafetyModel(o.modelDir));
    pool.spawnAll();
    return pool;
  }

  /** Scores one SAFETY_INPUT_SIZE² RGB frame (see the class comment for how it is made). */
  classify(rgb: Uint8Array): Promise<SafetyScores> {
    if (!(rgb instanceof Uint8Array) || rgb.length !== SAFETY_INPUT_BYTES) {
      const got = rgb instanceof Uint8Array ? `${rgb.length} bytes` : typeof rgb;
      return Promise.reject(new RangeError(`classify takes ${SAFETY_INPUT_SIZE}×${SAFETY_INPUT_SIZE} RGB (${SAFETY_INPUT_BYTES} bytes), got ${got}`));
    }
    return this.submit(rgb, true);
  }

  stats(): { state: SafetyPool['state']; queued: number; workers: { ready: boolean; busy: boolean; served: number; restarts: number }[] } {
    return {
      state: this.state,
      queued: this.queued(),
      workers: this.slotStats().map((s) => ({ ready: s.ready, busy: s.busy, served: s.items, restarts: s.restarts })),
    };
  }

  protected batchSize(head: readonly Uint8Array[], idleWorkers: number): number {
    return safetyBatchSize(head.length, idleWorkers);
  }

  protected request(id: number, frames: Uint8Array[]): { message: SafetyWorkerRequest; transfer: ArrayBuffer[] } {
    // One buffer for the batch, transferred: the callers' frames stay theirs.
    const pixels = new Uint8Array(frames.length * SAFETY_INPUT_BYTES);
    frames.forEach((f, i) => pixels.set(f, i * SAFETY_INPUT_BYTES));
    return { message: { type: 'classify', id, frames: frames.length, pixels }, transfer: [pixels.buffer] };
  }

  protected outputs(m: Extract<SafetyWorkerMessage, { type: 'result' }>, frames: Uint8Array[]): SafetyScores[] {
    if (m.probabilities.length !== frames.length * 3)
      throw new Error(`the image safety model gave ${m.probabilities.length} values for ${frames.length} frames`);
    return frames.map((_, i) => safetyScoresAt(m.probabilities, i));
  }
}
