import { ModelWorkerPool, WorkerPoolLogLevel, WorkerPoolState } from '../worker-pool/model-worker-pool';
import { backendProblem } from './nsfw-pool.rules';
import { NsfwScores, nsfwScoresOf } from './nsfw-scores';
import { NSFW_WORKER_FILE, NsfwJobMessage, NsfwWorkerMessage, nsfwWorkerData } from './nsfw-worker.protocol';

/** The nsfwjs model the pool loads: MobileNetV2 at mid resolution, bundled in the package
 * (no download). Its graph's input is `[-1, 224, 224, 3]` (nsfwjs's IMAGE_SIZE too). */
export const NSFW_MODEL_NAME = 'MobileNetV2Mid';
/** Its bundles' folder in the nsfwjs package (dist/models/…). */
export const NSFW_MODEL_DIR = 'mobilenet_v2_mid';

/** The side of the square RGB frame the model takes. */
export const NSFW_INPUT_SIZE = 224;

/** Bytes of one frame: NSFW_INPUT_SIZE² pixels × 3 channels (RGB, no alpha). */
export const NSFW_INPUT_BYTES = NSFW_INPUT_SIZE * NSFW_INPUT_SIZE * 3;

export type NsfwPoolLogLevel = WorkerPoolLogLevel;

export interface NsfwPoolOptions {
  /** Worker threads, each with its own copy of the model (~7 s to load, a few tens of MiB). */
  workers: number;
  /** Frames waiting for a worker beyond which `classify` rejects at once (IMAGE_QUEUE_FULL). */
  queueLimit?: number;
  log?: (level: NsfwPoolLogLevel, msg: string) => void;
  /** Test hook: 'cpu' proves that the pool refuses a slow backend. */
  backend?: 'wasm' | 'cpu';
}

export type NsfwPoolState = WorkerPoolState;

export interface NsfwWorkerStats {
  ready: boolean;
  busy: boolean;
  served: number;
  /** times this slot's worker died (all time) */
  restarts: number;
  /** tf.memory().numTensors once the model was loaded, and after the last job */
  tensorsAtReady: number | null;
  tensors: number | null;
}

export interface NsfwPoolStats {
  state: NsfwPoolState;
  queued: number;
  workers: NsfwWorkerStats[];
}

export const DEFAULT_NSFW_QUEUE_LIMIT = 256;

/**
 * The nsfwjs image model in a pool of worker threads (ModelWorkerPool): one frame at a
 * time per worker. A worker that is not on tfjs's wasm backend with SIMD fails the pool
 * (backendProblem): it would answer, but 5-20× too slowly.
 */
export class NsfwPool extends ModelWorkerPool<Uint8Array, NsfwScores, NsfwWorkerMessage> {
  readonly inputSize = NSFW_INPUT_SIZE;
  private readonly tensors: { atReady: number | null; now: number | null }[];

  private constructor(o: NsfwPoolOptions) {
    super(
      {
        label: 'image',
        item: 'image',
        title: 'The image classifier',
        file: NSFW_WORKER_FILE,
        workerData: nsfwWorkerData({ backend: o.backend ?? 'wasm', modelName: NSFW_MODEL_NAME, modelDir: NSFW_MODEL_DIR, inputSize: NSFW_INPUT_SIZE }),
        codes: { unavailable: 'IMAGE_MODEL_UNAVAILABLE', queueFull: 'IMAGE_QUEUE_FULL', crashed: 'IMAGE_WORKER_CRASHED' },
      },
      { workers: o.workers, queueLimit: o.queueLimit ?? DEFAULT_NSFW_QUEUE_LIMIT, log: o.log },
    );
    this.tensors = Array.from({ length: o.workers }, () => ({ atReady: null, now: null }));
  }

  /** Starts the workers; the models load in the background (see `ready`). */
  static start(o: NsfwPoolOptions): NsfwPool {
    const pool = new NsfwPool(o);
    pool.spawnAll();
    return pool;
  }

  /** Scores one NSFW_INPUT_SIZE² RGB frame. Waits for a worker (the model may still be
   * loading); rejects at once with IMAGE_QUEUE_FULL when the queue is at its limit. */
  classify(rgb: Uint8Array): Promise<NsfwScores> {
    if (!(rgb instanceof Uint8Array) || rgb.length !== NSFW_INPUT_BYTES) {
      const got = rgb instanceof Uint8Array ? `${rgb.length} bytes` : typeof rgb;
      return Promise.reject(new RangeError(`classify takes ${NSFW_INPUT_SIZE}×${NSFW_INPUT_SIZE} RGB (${NSFW_INPUT_BYTES} bytes), got ${got}`));
    }
    // A private copy whose buffer is transferred to the worker: the caller's array stays usable.
    return this.submit(new Uint8Array(rgb));
  }

  stats(): NsfwPoolStats {
    return {
      state: this.state,
      queued: this.queued(),
      workers: this.slotStats().map((s, i) => ({
        ready: s.ready,
        busy: s.busy,
        served: s.items,
        restarts: s.restarts,
        tensorsAtReady: this.tensors[i].atReady,
        tensors: this.tensors[i].now,
      })),
    };
  }

  protected batchSize(): number {
    return 1;
  }

  protected request(id: number, [pixels]: Uint8Array[]): { message: NsfwJobMessage; transfer: ArrayBuffer[] } {
    return { message: { id, pixels }, transfer: [pixels.buffer as ArrayBuffer] };
  }

  protected outputs(m: Extract<NsfwWorkerMessage, { type: 'result' }>): NsfwScores[] {
    return [nsfwScoresOf(m.predictions)];
  }

  protected override onReady(slot: number, m: Extract<NsfwWorkerMessage, { type: 'ready' }>): void {
    this.tensors[slot] = { atReady: m.tensors, now: m.tensors };
  }

  protected override onSettled(slot: number, m: Extract<NsfwWorkerMessage, { type: 'result' | 'job-error' }>): void {
    this.tensors[slot].now = m.tensors;
  }

  protected override onOtherMessage(slot: number, m: NsfwWorkerMessage): Error | null {
    if (m.type !== 'backend') return super.onOtherMessage(slot, m);
    const problem = backendProblem(m);
    return problem ? this.unavailable(`The image classifier cannot start: ${problem}`) : null;
  }
}
