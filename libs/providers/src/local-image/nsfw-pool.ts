import { Worker } from 'worker_threads';
import { DomainError } from '@cds/errors';
import { MAX_CONSECUTIVE_WORKER_CRASHES, backendProblem, respawnDelayMs } from './nsfw-pool.rules';
import { NsfwPrediction, NsfwScores, nsfwScoresOf } from './nsfw-scores';
import { NSFW_WORKER_SOURCE, NsfwJobMessage, NsfwWorkerData, NsfwWorkerMessage, nsfwWorkerData } from './nsfw-worker.source';

/** The nsfwjs model the pool loads: MobileNetV2 at mid resolution, bundled in the package
 * (no download). Its graph's input is `[-1, 224, 224, 3]` (nsfwjs's IMAGE_SIZE too). */
export const NSFW_MODEL_NAME = 'MobileNetV2Mid';
/** Its bundles' folder in the nsfwjs package (dist/models/…). */
export const NSFW_MODEL_DIR = 'mobilenet_v2_mid';

/** The side of the square RGB frame the model takes. */
export const NSFW_INPUT_SIZE = 224;

/** Bytes of one frame: NSFW_INPUT_SIZE² pixels × 3 channels (RGB, no alpha). */
export const NSFW_INPUT_BYTES = NSFW_INPUT_SIZE * NSFW_INPUT_SIZE * 3;

export type NsfwPoolLogLevel = 'log' | 'warn' | 'error';

export interface NsfwPoolOptions {
  /** Worker threads, each with its own copy of the model (~7 s to load, a few tens of MiB). */
  workers: number;
  /** Frames waiting for a worker beyond which `classify` rejects at once (IMAGE_QUEUE_FULL). */
  queueLimit?: number;
  log?: (level: NsfwPoolLogLevel, msg: string) => void;
  /** Test hook: 'cpu' proves that the pool refuses a slow backend. */
  backend?: 'wasm' | 'cpu';
}

export type NsfwPoolState = 'loading' | 'ready' | 'failed';

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

interface Job {
  id: number;
  pixels: Uint8Array;
  resolve: (scores: NsfwScores) => void;
  reject: (err: Error) => void;
}

interface Slot {
  index: number;
  worker: Worker | null;
  ready: boolean;
  job: Job | null;
  jobStartedAt: number;
  busyMs: number;
  served: number;
  restarts: number;
  consecutiveCrashes: number;
  abandoned: boolean;
  respawnTimer: NodeJS.Timeout | null;
  lastError: string | null;
  tensorsAtReady: number | null;
  tensors: number | null;
}

const unavailable = (message: string, details = '') => new DomainError('unavailable', 'IMAGE_MODEL_UNAVAILABLE', message, details);
const firstLine = (text: string) => text.split('\n', 1)[0];

/**
 * The nsfwjs image model in a pool of worker threads: each worker loads the model once,
 * then classifies one frame at a time, off the event loop. Frames wait in a bounded queue
 * and go to the idle worker that has been busy least. A worker that dies takes its
 * in-flight frame with it (rejected, never retried: it may be what killed it) and is
 * respawned with backoff; one that keeps dying is given up on.
 */
export class NsfwPool {
  readonly inputSize = NSFW_INPUT_SIZE;
  private currentState: NsfwPoolState = 'loading';
  private failure: Error | null = null;
  private closed = false;
  private closing: Promise<void> | null = null;
  private nextJobId = 1;
  private readonly queue: Job[] = [];
  private readonly slots: Slot[];
  private readonly queueLimit: number;
  private readonly log: (level: NsfwPoolLogLevel, msg: string) => void;
  private readonly workerData: NsfwWorkerData;
  private readonly startedAt = Date.now();
  private readonly readiness: Promise<void>;
  private settleReadiness!: (err?: Error) => void;

  private constructor(o: NsfwPoolOptions) {
    if (!Number.isInteger(o.workers) || o.workers < 1) throw new RangeError(`workers must be an integer >= 1, got ${o.workers}`);
    const queueLimit = o.queueLimit ?? DEFAULT_NSFW_QUEUE_LIMIT;
    if (!Number.isInteger(queueLimit) || queueLimit < 0) throw new RangeError(`queueLimit must be an integer >= 0, got ${o.queueLimit}`);
    this.queueLimit = queueLimit;
    this.log = o.log ?? ((level, msg) => console[level](msg));
    this.workerData = nsfwWorkerData({ backend: o.backend ?? 'wasm', modelName: NSFW_MODEL_NAME, modelDir: NSFW_MODEL_DIR, inputSize: NSFW_INPUT_SIZE });
    this.readiness = new Promise<void>((resolve, reject) => {
      this.settleReadiness = (err) => (err ? reject(err) : resolve());
    });
    // Nobody may be awaiting ready(): a failure must not become an unhandled rejection.
    this.readiness.catch(() => undefined);
    this.slots = Array.from({ length: o.workers }, (_, index) => ({
      index,
      worker: null,
      ready: false,
      job: null,
      jobStartedAt: 0,
      busyMs: 0,
      served: 0,
      restarts: 0,
      consecutiveCrashes: 0,
      abandoned: false,
      respawnTimer: null,
      lastError: null,
      tensorsAtReady: null,
      tensors: null,
    }));
  }

  /** Starts the workers; the models load in the background (see `ready`). */
  static start(o: NsfwPoolOptions): NsfwPool {
    const pool = new NsfwPool(o);
    for (const slot of pool.slots) pool.spawn(slot);
    return pool;
  }

  get state(): NsfwPoolState {
    return this.currentState;
  }

  /** Resolves when every worker has its model; rejects if the backend is not wasm with
   * SIMD, the model cannot load, workers keep dying during start-up, or the pool is closed. */
  ready(): Promise<void> {
    return this.readiness;
  }

  /** Scores one NSFW_INPUT_SIZE² RGB frame. Waits for a worker (the model may still be
   * loading); rejects at once with IMAGE_QUEUE_FULL when the queue is at its limit. */
  classify(rgb: Uint8Array): Promise<NsfwScores> {
    if (!(rgb instanceof Uint8Array) || rgb.length !== NSFW_INPUT_BYTES) {
      const got = rgb instanceof Uint8Array ? `${rgb.length} bytes` : typeof rgb;
      return Promise.reject(new RangeError(`classify takes ${NSFW_INPUT_SIZE}×${NSFW_INPUT_SIZE} RGB (${NSFW_INPUT_BYTES} bytes), got ${got}`));
    }
    if (this.closed) return Promise.reject(unavailable('The image classifier is closed'));
    if (this.failure) return Promise.reject(this.failure);
    const idle = this.idleSlot();
    if (!idle && this.queue.length >= this.queueLimit) {
      return Promise.reject(
        new DomainError('unavailable', 'IMAGE_QUEUE_FULL', 'The image classifier is busy', `${this.queue.length} images are waiting; retry later`),
      );
    }
    return new Promise<NsfwScores>((resolve, reject) => {
      // A private copy whose buffer is transferred to the worker: the caller's array stays usable.
      const job: Job = { id: this.nextJobId++, pixels: new Uint8Array(rgb), resolve, reject };
      if (idle) this.run(idle, job);
      else this.queue.push(job);
    });
  }

  stats(): NsfwPoolStats {
    return {
      state: this.currentState,
      queued: this.queue.length,
      workers: this.slots.map((s) => ({
        ready: s.ready,
        busy: s.job !== null,
        served: s.served,
        restarts: s.restarts,
        tensorsAtReady: s.tensorsAtReady,
        tensors: s.tensors,
      })),
    };
  }

  /** Test and operations hook: terminates one worker as a crash would (its in-flight frame
   * is rejected and the worker respawned). */
  async killWorker(index: number): Promise<void> {
    const worker = this.slots[index]?.worker;
    if (!worker) throw new RangeError(`no live worker ${index}`);
    await worker.terminate();
  }

  /** Terminates the workers; waiting and in-flight frames are rejected. */
  close(): Promise<void> {
    if (!this.closing) {
      this.closed = true;
      const err = unavailable('The image classifier is closed');
      this.rejectAll(err);
      this.settleReadiness(err);
      this.closing = this.terminateAll();
    }
    return this.closing;
  }

  private spawn(slot: Slot): void {
    let worker: Worker;
    try {
      worker = new Worker(NSFW_WORKER_SOURCE, { eval: true, workerData: this.workerData });
    } catch (err) {
      // e.g. no memory for another thread: counted as a crash, retried with backoff
      this.onWorkerLost(slot, `cannot start a worker thread: ${(err as Error).message}`);
      return;
    }
    slot.worker = worker;
    slot.lastError = null;
    worker.on('message', (m: NsfwWorkerMessage) => this.onMessage(slot, worker, m));
    worker.on('error', (err) => {
      slot.lastError = err.message;
      this.log('error', `image worker ${slot.index} failed: ${err.stack ?? err.message}`);
    });
    worker.on('exit', (code) => {
      if (slot.worker === worker) this.onWorkerLost(slot, slot.lastError ?? `exit code ${code}`);
    });
  }

  private onMessage(slot: Slot, worker: Worker, m: NsfwWorkerMessage): void {
    if (slot.worker !== worker || this.closed || this.failure) return;
    switch (m.type) {
      case 'backend': {
        const problem = backendProblem(m);
        if (problem) this.fail(unavailable(`The image classifier cannot start: ${problem}`));
        return;
      }
      case 'init-error':
        this.fail(unavailable(`The image model failed to load: ${firstLine(m.message)}`, m.message));
        return;
      case 'ready':
        slot.ready = true;
        slot.tensorsAtReady = slot.tensors = m.tensors;
        if (this.currentState === 'loading' && this.slots.every((s) => s.ready)) {
          this.currentState = 'ready';
          this.log('log', `image model ready in ${this.slots.length} worker(s) after ${Date.now() - this.startedAt} ms`);
          this.settleReadiness();
        }
        this.dispatch();
        return;
      case 'result':
      case 'job-error': {
        const job = slot.job;
        slot.job = null;
        slot.busyMs += Date.now() - slot.jobStartedAt;
        slot.tensors = m.tensors;
        if (job && job.id !== m.id) job.reject(new Error(`image worker ${slot.index} answered job ${m.id} instead of ${job.id}`));
        else if (job && m.type === 'job-error') job.reject(new Error(`image classification failed: ${firstLine(m.message)}`));
        else if (job && m.type === 'result') this.settle(slot, job, m.predictions);
        this.dispatch();
        return;
      }
      case 'log':
        this.log(m.level, `image worker ${slot.index}: ${m.message}`);
        return;
      default: {
        const unknown: never = m;
        this.log('warn', `image worker ${slot.index} sent an unknown message ${JSON.stringify(unknown)}`);
      }
    }
  }

  private settle(slot: Slot, job: Job, predictions: NsfwPrediction[]): void {
    try {
      job.resolve(nsfwScoresOf(predictions));
      slot.served++;
      slot.consecutiveCrashes = 0;
    } catch (err) {
      job.reject(err as Error);
    }
  }

  private onWorkerLost(slot: Slot, reason: string): void {
    slot.worker = null;
    slot.ready = false;
    const job = slot.job;
    slot.job = null;
    if (this.closed || this.failure) return;
    job?.reject(new DomainError('unavailable', 'IMAGE_WORKER_CRASHED', 'The image classifier stopped while reading this image', reason));
    slot.restarts++;
    slot.consecutiveCrashes++;
    if (slot.consecutiveCrashes > MAX_CONSECUTIVE_WORKER_CRASHES) {
      slot.abandoned = true;
      const msg = `image worker ${slot.index} died ${slot.consecutiveCrashes} times in a row (last: ${reason})`;
      this.log('error', `${msg}; giving up on it`);
      if (this.currentState === 'loading' || this.slots.every((s) => s.abandoned)) this.fail(unavailable(`The image classifier keeps crashing: ${msg}`));
      return;
    }
    const delay = respawnDelayMs(slot.consecutiveCrashes);
    this.log('warn', `image worker ${slot.index} stopped (${reason}); respawning in ${delay} ms`);
    slot.respawnTimer = setTimeout(() => {
      slot.respawnTimer = null;
      if (!this.closed && !this.failure) this.spawn(slot);
    }, delay);
  }

  private idleSlot(): Slot | null {
    let best: Slot | null = null;
    for (const s of this.slots) {
      if (s.ready && s.worker && !s.job && (!best || s.busyMs < best.busyMs)) best = s;
    }
    return best;
  }

  private dispatch(): void {
    for (let slot = this.idleSlot(); slot && this.queue.length > 0; slot = this.idleSlot()) {
      this.run(slot, this.queue.shift()!);
    }
  }

  private run(slot: Slot, job: Job): void {
    slot.job = job;
    slot.jobStartedAt = Date.now();
    const message: NsfwJobMessage = { id: job.id, pixels: job.pixels };
    slot.worker!.postMessage(message, [job.pixels.buffer as ArrayBuffer]);
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    this.currentState = 'failed';
    const stack = err instanceof DomainError && err.details && err.details !== err.message ? `\n${err.details}` : '';
    this.log('error', `${err.message}${stack}`);
    this.rejectAll(err);
    this.settleReadiness(err);
    void this.terminateAll();
  }

  private rejectAll(err: Error): void {
    for (const job of this.queue.splice(0)) job.reject(err);
    for (const slot of this.slots) {
      slot.job?.reject(err);
      slot.job = null;
    }
  }

  private async terminateAll(): Promise<void> {
    const running: Promise<number>[] = [];
    for (const slot of this.slots) {
      if (slot.respawnTimer) clearTimeout(slot.respawnTimer);
      slot.respawnTimer = null;
      slot.ready = false;
      if (slot.worker) running.push(slot.worker.terminate());
    }
    await Promise.allSettled(running);
  }
}
