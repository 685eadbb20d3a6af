import { Worker } from 'worker_threads';
import { DomainError } from '@cds/errors';
import { MAX_CONSECUTIVE_WORKER_CRASHES, respawnDelayMs } from './respawn.rules';
import { drainSeconds } from './queue-drain.rules';
import { startWorkerFile } from '@cds/threads';

export type WorkerPoolLogLevel = 'log' | 'warn' | 'error';
export type WorkerPoolState = 'loading' | 'ready' | 'failed';

/** What every model worker sends. A kind adds its own messages (see `onOtherMessage`) and
 * its own fields on these. */
export type BaseWorkerMessage =
  | { type: 'ready' }
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number }
  | { type: 'job-error'; id: number; message: string }
  | { type: 'log'; level: WorkerPoolLogLevel; message: string };

/** How one kind of model pool names itself and its failures (503s: DomainError 'unavailable'). */
export interface WorkerPoolKind {
  /** in logs and messages: "image", "text embedding" */
  label: string;
  /** what the model reads, in the caller's words: "image", "text" */
  item: string;
  /** the worker's typed file, an absolute path without its extension (startWorkerFile) */
  file: string;
  workerData: unknown;
  codes: { unavailable: string; queueFull: string; crashed: string };
  /** "The image classifier" */
  title: string;
  /** Sent to a worker on close so it frees its model; without it, workers are terminated. */
  closeMessage?: unknown;
}

export interface WorkerPoolOptions {
  workers: number;
  /** Items waiting for a worker beyond which `submit` rejects at once (the kind's queueFull code). */
  queueLimit: number;
  log?: (level: WorkerPoolLogLevel, msg: string) => void;
}

export interface WorkerSlotStats {
  ready: boolean;
  busy: boolean;
  /** batches completed */
  batches: number;
  /** items completed */
  items: number;
  /** times this slot's worker died (all time) */
  restarts: number;
}

interface Job<TIn, TOut> {
  input: TIn;
  resolve: (out: TOut) => void;
  reject: (err: Error) => void;
}

interface Slot<TIn, TOut> {
  index: number;
  worker: Worker | null;
  ready: boolean;
  batch: Job<TIn, TOut>[] | null;
  batchId: number;
  startedAt: number;
  busyMs: number;
  batches: number;
  items: number;
  restarts: number;
  consecutiveCrashes: number;
  abandoned: boolean;
  respawnTimer: NodeJS.Timeout | null;
  lastError: string | null;
}

/** how long a graceful close waits for a worker to free its model before terminating it */
const CLOSE_GRACE_MS = 2_000;
/** the same for a worker still loading its model: it reads `close` only once the load
 * returns, and a thread terminated inside the native load can abort the whole process
 * (koffi's napi_throw as the environment is torn down), so it gets the time a load can
 * take on a loaded machine; past it the load is taken to hang, and terminated */
const LOAD_GRACE_MS = 60_000;
const firstLine = (text: string) => text.split('\n', 1)[0];

/**
 * A model in a pool of worker threads: each worker loads the model once, then runs one
 * batch at a time off the event loop. Inputs wait in a bounded queue and leave in batches
 * (`batchSize`: one input, or several in one forward pass) for the idle worker that has
 * been busy least. A worker that dies takes its batch with it (rejected, never retried: it
 * may be what killed it) and is respawned with backoff; one that keeps dying is given up
 * on, and the pool fails when every worker is (or one is during start-up).
 *
 * A kind says how a batch is posted (`request`) and read back (`outputs`), and may read
 * the extra fields and messages of its worker (`onReady`, `onSettled`, `onOtherMessage`).
 */
export abstract class ModelWorkerPool<TIn, TOut, TMessage extends { type: string }> {
  private currentState: WorkerPoolState = 'loading';
  private failure: Error | null = null;
  private closed = false;
  private closing: Promise<void> | null = null;
  private nextBatchId = 1;
  private readonly queue: Job<TIn, TOut>[] = [];
  private readonly slots: Slot<TIn, TOut>[];
  private readonly queueLimit: number;
  protected readonly log: (level: WorkerPoolLogLevel, msg: string) => void;
  private readonly startedAt = Date.now();
  private readonly readiness: Promise<void>;
  private settleReadiness!: (err?: Error) => void;

  protected constructor(
    private readonly kind: WorkerPoolKind,
    o: WorkerPoolOptions,
  ) {
    if (!Number.isInteger(o.workers) || o.workers < 1) throw new RangeError(`workers must be an integer >= 1, got ${o.workers}`);
    if (!Number.isInteger(o.queueLimit) || o.queueLimit < 0) throw new RangeError(`queueLimit must be an integer >= 0, got ${o.queueLimit}`);
    this.queueLimit = o.queueLimit;
    this.log = o.log ?? ((level, msg) => console[level](msg));
    this.readiness = new Promise<void>((resolve, reject) => {
      this.settleReadiness = (err) => (err ? reject(err) : resolve());
    });
    // Nobody may be awaiting ready(): a failure must not become an unhandled rejection.
    this.readiness.catch(() => undefined);
    this.slots = Array.from({ length: o.workers }, (_, index) => ({
      index,
      worker: null,
      ready: false,
      batch: null,
      batchId: 0,
      startedAt: 0,
      busyMs: 0,
      batches: 0,
      items: 0,
      restarts: 0,
      consecutiveCrashes: 0,
      abandoned: false,
      respawnTimer: null,
      lastError: null,
    }));
  }

  /** How many queued inputs the next idle worker takes (at least one), given the head of
   * the queue (up to `batchLookahead` inputs, in queue order). */
  protected abstract batchSize(head: readonly TIn[], idleWorkers: number): number;
  /** How much of the queue `batchSize` sees: the largest batch a worker may take. */
  protected batchLookahead = 1;
  /** The message that hands a batch to a worker, and the buffers it transfers. */
  protected abstract request(id: number, batch: TIn[]): { message: unknown; transfer?: ArrayBuffer[] };
  /** One output per input of the batch, from the worker's `result` message. */
  protected abstract outputs(result: Extract<TMessage, { type: 'result' }>, batch: TIn[]): TOut[];

  /** A worker's `ready` message (e.g. the model's dimension). */
  protected onReady(_slot: number, _m: Extract<TMessage, { type: 'ready' }>): void {}
  /** A worker's `result` or `job-error` message (e.g. its memory figures). */
  protected onSettled(_slot: number, _m: Extract<TMessage, { type: 'result' | 'job-error' }>): void {}
  /** A message of the kind's own; returns an error to fail the pool with. */
  protected onOtherMessage(slot: number, m: TMessage): Error | null {
    this.log('warn', `${this.kind.label} worker ${slot} sent an unknown message ${JSON.stringify(m)}`);
    return null;
  }

  /** Spawns every worker; the models load in the background (see `ready`). */
  protected spawnAll(): void {
    for (const slot of this.slots) this.spawn(slot);
  }

  get state(): WorkerPoolState {
    return this.currentState;
  }

  /** Resolves when every worker has its model; rejects if it cannot load, workers keep
   * dying during start-up, or the pool is closed. */
  ready(): Promise<void> {
    return this.readiness;
  }

  protected unavailable(message: string, details = ''): DomainError {
    return new DomainError('unavailable', this.kind.codes.unavailable, message, details);
  }

  /** Queues one input. `sameTick`: inputs submitted in the same tick leave together (one
   * batch); otherwise an idle worker takes it at once. Rejects at once when the queue is at
   * its limit and no worker is idle, with the seconds the queue takes to drain at the
   * pool's pace (`retryAfter`). */
  protected submit(input: TIn, sameTick = false): Promise<TOut> {
    const { title, item, codes } = this.kind;
    if (this.closed) return Promise.reject(this.unavailable(`${title} is closed`));
    if (this.failure) return Promise.reject(this.failure);
    if (this.queue.length >= this.queueLimit && !this.idleSlots()[0]) {
      const retryAfter = drainSeconds(this.queue.length, this.slots);
      return Promise.reject(
        new DomainError('unavailable', codes.queueFull, `${title} is busy`, `${this.queue.length} ${item}s are waiting; retry in ${retryAfter} s`, retryAfter),
      );
    }
    return new Promise<TOut>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (!sameTick) this.dispatch();
      else if (this.queue.length === 1) queueMicrotask(() => this.dispatch());
    });
  }

  protected slotStats(): WorkerSlotStats[] {
    return this.slots.map((s) => ({ ready: s.ready, busy: s.batch !== null, batches: s.batches, items: s.items, restarts: s.restarts }));
  }

  queued(): number {
    return this.queue.length;
  }

  /** Test and operations hook: terminates one worker as a crash would (its batch is
   * rejected and the worker respawned). A worker of a native model (koffi, onnxruntime)
   * must be idle: terminated inside a native call, it can abort the process. */
  async killWorker(index: number): Promise<void> {
    const worker = this.slots[index]?.worker;
    if (!worker) throw new RangeError(`no live worker ${index}`);
    await worker.terminate();
  }

  /** Rejects waiting and in-flight inputs, then stops the workers (letting each free its
   * model first when the kind has a close message). */
  close(): Promise<void> {
    if (!this.closing) {
      this.closed = true;
      const err = this.unavailable(`${this.kind.title} is closed`);
      this.rejectAll(err);
      this.settleReadiness(err);
      this.closing = this.terminateAll(this.kind.closeMessage !== undefined);
    }
    return this.closing;
  }

  private spawn(slot: Slot<TIn, TOut>): void {
    let worker: Worker;
    try {
      worker = startWorkerFile(this.kind.file, { workerData: this.kind.workerData });
    } catch (err) {
      // e.g. no memory for another thread: counted as a crash, retried with backoff
      this.onWorkerLost(slot, `cannot start a worker thread: ${(err as Error).message}`);
      return;
    }
    slot.worker = worker;
    slot.lastError = null;
    worker.on('message', (m: TMessage) => this.onMessage(slot, worker, m));
    worker.on('error', (err) => {
      slot.lastError = err.message;
      this.log('error', `${this.kind.label} worker ${slot.index} failed: ${err.stack ?? err.message}`);
    });
    worker.on('exit', (code) => {
      if (slot.worker === worker) this.onWorkerLost(slot, slot.lastError ?? `exit code ${code}`);
    });
  }

  private onMessage(slot: Slot<TIn, TOut>, worker: Worker, message: TMessage): void {
    if (slot.worker !== worker || this.closed || this.failure) return;
    const m = message as unknown as BaseWorkerMessage;
    switch (m.type) {
      case 'init-error':
        this.fail(this.unavailable(`The ${this.kind.label} model failed to load: ${firstLine(m.message)}`, m.message));
        return;
      case 'ready':
        slot.ready = true;
        this.onReady(slot.index, message as Extract<TMessage, { type: 'ready' }>);
        if (this.currentState === 'loading' && this.slots.every((s) => s.ready)) {
          this.currentState = 'ready';
          this.log('log', `${this.kind.label} model ready in ${this.slots.length} worker(s) after ${Date.now() - this.startedAt} ms`);
          this.settleReadiness();
        }
        this.dispatch();
        return;
      case 'result':
      case 'job-error': {
        const batch = slot.batch;
        slot.batch = null;
        slot.busyMs += Date.now() - slot.startedAt;
        this.onSettled(slot.index, message as Extract<TMessage, { type: 'result' | 'job-error' }>);
        if (batch) this.settle(slot, batch, m, message);
        this.dispatch();
        return;
      }
      case 'log':
        this.log(m.level, `${this.kind.label} worker ${slot.index}: ${m.message}`);
        return;
      default: {
        const err = this.onOtherMessage(slot.index, message);
        if (err) this.fail(err);
      }
    }
  }

  private settle(slot: Slot<TIn, TOut>, batch: Job<TIn, TOut>[], m: BaseWorkerMessage & { id: number }, message: TMessage): void {
    const { label } = this.kind;
    if (m.id !== slot.batchId) {
      for (const j of batch) j.reject(new Error(`${label} worker ${slot.index} answered batch ${m.id} instead of ${slot.batchId}`));
      return;
    }
    if (m.type === 'job-error') {
      for (const j of batch) j.reject(new Error(`${label} model failed: ${firstLine(m.message)}`));
      return;
    }
    let outputs: TOut[];
    try {
      outputs = this.outputs(
        message as Extract<TMessage, { type: 'result' }>,
        batch.map((j) => j.input),
      );
      if (outputs.length !== batch.length) throw new Error(`${label} worker ${slot.index} answered ${outputs.length} of ${batch.length}`);
    } catch (err) {
      for (const j of batch) j.reject(err as Error);
      return;
    }
    batch.forEach((j, i) => j.resolve(outputs[i]));
    slot.batches++;
    slot.items += batch.length;
    slot.consecutiveCrashes = 0;
  }

  private onWorkerLost(slot: Slot<TIn, TOut>, reason: string): void {
    slot.worker = null;
    slot.ready = false;
    const batch = slot.batch;
    slot.batch = null;
    if (this.closed || this.failure) return;
    const { label, title, item, codes } = this.kind;
    for (const j of batch ?? []) j.reject(new DomainError('unavailable', codes.crashed, `${title} stopped while reading this ${item}`, reason));
    slot.restarts++;
    slot.consecutiveCrashes++;
    if (slot.consecutiveCrashes > MAX_CONSECUTIVE_WORKER_CRASHES) {
      slot.abandoned = true;
      const msg = `${label} worker ${slot.index} died ${slot.consecutiveCrashes} times in a row (last: ${reason})`;
      this.log('error', `${msg}; giving up on it`);
      if (this.currentState === 'loading' || this.slots.every((s) => s.abandoned)) this.fail(this.unavailable(`${title} keeps crashing: ${msg}`));
      return;
    }
    const delay = respawnDelayMs(slot.consecutiveCrashes);
    this.log('warn', `${label} worker ${slot.index} stopped (${reason}); respawning in ${delay} ms`);
    slot.respawnTimer = setTimeout(() => {
      slot.respawnTimer = null;
      if (!this.closed && !this.failure) this.spawn(slot);
    }, delay);
  }

  private idleSlots(): Slot<TIn, TOut>[] {
    return this.slots.filter((s) => s.ready && s.worker && !s.batch).sort((a, b) => a.busyMs - b.busyMs);
  }

  private dispatch(): void {
    if (this.closed || this.failure) return;
    let idle = this.idleSlots();
    while (idle.length > 0 && this.queue.length > 0) {
      const head = this.queue.slice(0, this.batchLookahead).map((j) => j.input);
      const n = Math.max(1, Math.min(head.length, this.batchSize(head, idle.length)));
      this.run(idle[0], this.queue.splice(0, n));
      idle = idle.slice(1);
    }
  }

  private run(slot: Slot<TIn, TOut>, batch: Job<TIn, TOut>[]): void {
    slot.batch = batch;
    slot.batchId = this.nextBatchId++;
    slot.startedAt = Date.now();
    const { message, transfer } = this.request(
      slot.batchId,
      batch.map((j) => j.input),
    );
    slot.worker!.postMessage(message, transfer);
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    this.currentState = 'failed';
    const details = err instanceof DomainError && err.details && err.details !== err.message ? `\n${err.details}` : '';
    this.log('error', `${err.message}${details}`);
    this.rejectAll(err);
    this.settleReadiness(err);
    // Graceful when the kind can free its model: another worker may be inside a native call
    // (loading or running its model), and a thread terminated there can take the whole
    // process down (the addon's N-API calls fail as its environment is torn down).
    void this.terminateAll(this.kind.closeMessage !== undefined);
  }

  private rejectAll(err: Error): void {
    for (const job of this.queue.splice(0)) job.reject(err);
    for (const slot of this.slots) {
      for (const j of slot.batch ?? []) j.reject(err);
      slot.batch = null;
    }
  }

  private async terminateAll(graceful: boolean): Promise<void> {
    const running: Promise<unknown>[] = [];
    for (const slot of this.slots) {
      if (slot.respawnTimer) clearTimeout(slot.respawnTimer);
      slot.respawnTimer = null;
      const loading = !slot.ready;
      slot.ready = false;
      const worker = slot.worker;
      if (!worker) continue;
      if (!graceful) {
        running.push(worker.terminate());
        continue;
      }
      running.push(
        new Promise<void>((resolve) => {
          // a worker busy in a batch (or its load) answers `close` after it: give it that
          // time, then terminate
          const timer = setTimeout(() => void worker.terminate().then(() => resolve()), loading ? LOAD_GRACE_MS : CLOSE_GRACE_MS);
          worker.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          worker.postMessage(this.kind.closeMessage);
        }),
      );
    }
    await Promise.allSettled(running);
  }
}
