import { ModelWorkerPool, WorkerPoolLogLevel, WorkerPoolState } from '../worker-pool/model-worker-pool';
import { imageBatchSize, MAX_IMAGE_BATCH } from './onnx-image-pool.rules';
import {
  ONNX_IMAGE_WORKER_FILE,
  OnnxImageModelSource,
  OnnxImageWorkerData,
  OnnxImageWorkerMessage,
  OnnxImageWorkerRequest,
} from './onnx-image-worker.protocol';

export const DEFAULT_IMAGE_QUEUE_LIMIT = 256;

export interface OnnxImagePoolOptions {
  /** Worker threads, each with its own session (well under a second to load). */
  workers: number;
  /** Frames waiting for a worker beyond which `classify` rejects at once (IMAGE_QUEUE_FULL). */
  queueLimit?: number;
  log?: (level: WorkerPoolLogLevel, msg: string) => void;
}

/** What tells one image model from another in its pool. */
export interface OnnxImageModelSpec<S> {
  /** For the pool's log lines and errors, e.g. 'image safety'. */
  label: string;
  title: string;
  source: OnnxImageModelSource;
  /** Side of the square RGB frames the graph takes. */
  size: number;
  /** Each 0..255 byte divided by this is the graph's input. */
  pixelDivisor: number;
  /** Frame i's scores from the graph's `[batch, classes]` output (throws on a value that
   * would mean another model than the one the code was written for). */
  scoresAt(probabilities: Float32Array, i: number): S;
  classes: number;
}

export interface OnnxImagePoolStats {
  state: WorkerPoolState;
  queued: number;
  workers: { ready: boolean; busy: boolean; served: number; restarts: number }[];
}

/**
 * An ONNX image classifier on onnxruntime-node in a pool of worker threads
 * (ModelWorkerPool, onnx-image.worker.ts). Frames submitted in the same tick (an
 * animation's, a video's) leave together as one batch for the idle worker busy least.
 */
export class OnnxImagePool<S> extends ModelWorkerPool<Uint8Array, S, OnnxImageWorkerMessage> {
  readonly inputSize: number;
  private readonly frameBytes: number;

  protected constructor(
    private readonly spec: OnnxImageModelSpec<S>,
    o: OnnxImagePoolOptions,
  ) {
    const workerData: OnnxImageWorkerData = {
      onnxruntimePath: require.resolve('onnxruntime-node'),
      model: spec.source,
      size: spec.size,
      pixelDivisor: spec.pixelDivisor,
    };
    super(
      {
        label: spec.label,
        item: 'image',
        title: spec.title,
        file: ONNX_IMAGE_WORKER_FILE,
        workerData,
        codes: { unavailable: 'IMAGE_MODEL_UNAVAILABLE', queueFull: 'IMAGE_QUEUE_FULL', crashed: 'IMAGE_WORKER_CRASHED' },
        closeMessage: { type: 'close' } satisfies OnnxImageWorkerRequest,
      },
      { workers: o.workers, queueLimit: o.queueLimit ?? DEFAULT_IMAGE_QUEUE_LIMIT, log: o.log },
    );
    this.inputSize = spec.size;
    this.frameBytes = spec.size * spec.size * 3;
    this.batchLookahead = MAX_IMAGE_BATCH;
  }

  /** Scores one inputSize² RGB frame (rows top to bottom). Waits for a worker (the model
   * may still be loading); rejects at once with IMAGE_QUEUE_FULL past the queue limit. */
  classify(rgb: Uint8Array): Promise<S> {
    if (!(rgb instanceof Uint8Array) || rgb.length !== this.frameBytes) {
      const got = rgb instanceof Uint8Array ? `${rgb.length} bytes` : typeof rgb;
      return Promise.reject(new RangeError(`classify takes ${this.inputSize}×${this.inputSize} RGB (${this.frameBytes} bytes), got ${got}`));
    }
    return this.submit(rgb, true);
  }

  stats(): OnnxImagePoolStats {
    return {
      state: this.state,
      queued: this.queued(),
      workers: this.slotStats().map((s) => ({ ready: s.ready, busy: s.busy, served: s.items, restarts: s.restarts })),
    };
  }

  protected batchSize(head: readonly Uint8Array[], idleWorkers: number): number {
    return imageBatchSize(head.length, idleWorkers);
  }

  // The frames are copied into one batch buffer, transferred: the callers' arrays stay usable.
  protected request(id: number, frames: Uint8Array[]): { message: OnnxImageWorkerRequest; transfer: ArrayBuffer[] } {
    const pixels = new Uint8Array(frames.length * this.frameBytes);
    frames.forEach((f, i) => pixels.set(f, i * this.frameBytes));
    return { message: { type: 'classify', id, frames: frames.length, pixels }, transfer: [pixels.buffer] };
  }

  protected outputs(m: Extract<OnnxImageWorkerMessage, { type: 'result' }>, frames: Uint8Array[]): S[] {
    if (m.probabilities.length !== frames.length * this.spec.classes)
      throw new Error(`the ${this.spec.label} model gave ${m.probabilities.length} values for ${frames.length} frames`);
    return frames.map((_, i) => this.spec.scoresAt(m.probabilities, i));
  }
}
