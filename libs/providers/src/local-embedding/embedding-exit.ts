import { LOCAL_TEXT_CATEGORIES, LOCAL_TEXT_SIGNALS, LOCAL_TEXT_SIGNAL_FOLDING, LocalTextCategory, LocalTextSignal } from '../local-text/local-text.signals';
import { EmbeddingHead, EmbeddingHeadsFile, EmbeddingHeadsFormatError, parseEmbeddingHeads, scoreChunks } from './embedding-heads';
import { WorkerExit } from './embedding-worker.protocol';

/**
 * Early exit (model/embedding-exit.json, `npm run train:text:exit`): at one or two early
 * encoder layers, heads estimate what the full model will answer (each signal's calibrated
 * probability, learnt from the full model's own answers), and a text leaves there when,
 * for every signal a category of the calibration policy folds, the estimate is at least
 * `margin` (in logit units) away from that category's threshold: clearly below it, or
 * clearly past it. Every other text continues, resumed from that layer.
 */
export interface EmbeddingExitFile {
  format: 1;
  /** The full model the exits were calibrated against (LocalEmbeddingScorer's heads id and
   * the weights): a different one needs `npm run train:text:exit` again. */
  calibratedFor: { model: string; weightsSha256: string };
  /** The thresholds the margins were chosen at (the built-in `default` policy's). */
  thresholds: Record<LocalTextCategory, number>;
  exits: ExitLayer[];
}

export interface ExitLayer {
  layer: number;
  /** per signal: the estimate of the full model's probability from this layer's pooled
   * output, in the heads' form (a plain logistic: platt a = 1, b = 0) */
  heads: EmbeddingHeadsFile['heads'];
  margin: number;
}

export function logit(p: number): number {
  return Math.log(p / (1 - p));
}

/** Validates a parsed exit file (shape, sizes, finite numbers) against the heads' size. */
export function parseEmbeddingExit(json: unknown, dim: number): EmbeddingExitFile {
  const f = json as EmbeddingExitFile;
  if (!f || typeof f !== 'object' || f.format !== 1) throw new EmbeddingHeadsFormatError('exit format must be 1');
  if (!f.calibratedFor || typeof f.calibratedFor.model !== 'string' || typeof f.calibratedFor.weightsSha256 !== 'string')
    throw new EmbeddingHeadsFormatError('exit calibratedFor missing');
  for (const c of LOCAL_TEXT_CATEGORIES) {
    const t = f.thresholds?.[c];
    if (!(typeof t === 'number' && t > 0 && t < 1)) throw new EmbeddingHeadsFormatError(`exit thresholds.${c} must be in (0, 1)`);
  }
  if (!Array.isArray(f.exits)) throw new EmbeddingHeadsFormatError('exits missing');
  f.exits.forEach((e, i) => {
    if (!Number.isInteger(e.layer) || e.layer < 1 || (i > 0 && e.layer <= f.exits[i - 1].layer))
      throw new EmbeddingHeadsFormatError('exit layers must be ascending integers >= 1');
    if (!(typeof e.margin === 'number' && e.margin >= 0 && Number.isFinite(e.margin)))
      throw new EmbeddingHeadsFormatError(`exit ${e.layer}: margin must be >= 0`);
    // the heads' own checks (sizes, finite numbers, known signals)
    parseEmbeddingHeads({ format: 1, model: { dim }, chunks: { chunkChars: 1, maxChunks: 1 }, heads: e.heads, cascade: null });
  });
  return f;
}

/** The signals whose estimate decides an exit: those a category folds, with a head. */
function probedSignals(heads: EmbeddingHeadsFile['heads']): { signal: LocalTextSignal; category: LocalTextCategory; head: EmbeddingHead }[] {
  return LOCAL_TEXT_CATEGORIES.flatMap((category) =>
    LOCAL_TEXT_SIGNAL_FOLDING[category].flatMap((signal) => {
      const head = heads[signal];
      return head ? [{ signal, category, head }] : [];
    }),
  );
}

/**
 * The exits as the worker applies them: per probed signal, the weights w and the band
 * (lo, hi) of w·x inside which the estimate σ(a·(w·x + b) + b′) is within `margin` logits
 * of its category's threshold τ: a·(w·x + b) + b′ ∈ (logit τ − margin, logit τ + margin).
 */
export function workerExits(file: EmbeddingExitFile): WorkerExit[] {
  return file.exits.map((e) => {
    const probes = probedSignals(e.heads);
    const dim = probes[0]?.head.w.length ?? 0;
    const W = new Float32Array(probes.length * dim);
    const lo = new Float32Array(probes.length);
    const hi = new Float32Array(probes.length);
    probes.forEach(({ category, head }, j) => {
      W.set(head.w, j * dim);
      const t = logit(file.thresholds[category]);
      // u = a·z + a·b + b′ with z = w·x; solve for z at u = t ∓ margin (a > 0 keeps the order)
      const at = (u: number) => (u - head.platt.b) / head.platt.a - head.b;
      const [l, h] = [at(t - e.margin), at(t + e.margin)].sort((x, y) => x - y);
      lo[j] = Math.fround(l);
      hi[j] = Math.fround(h);
    });
    return { layer: e.layer, W, lo, hi };
  });
}

/** The worker's rule, for tests and evaluation: true when the text leaves at this exit. */
export function leavesAt(exit: WorkerExit, x: ArrayLike<number>): boolean {
  const dim = x.length;
  for (let j = 0; j < exit.lo.length; j++) {
    let z = 0;
    for (let k = 0; k < dim; k++) z += exit.W[j * dim + k] * x[k];
    if (z > exit.lo[j] && z < exit.hi[j]) return false;
  }
  return true;
}

/**
 * A text's signals from its chunks, each read by the heads of the layer it left at (the
 * full model's heads at the last layer, an exit's below it): max over chunks; signals
 * without a head take `fallback` (the n-gram model's score).
 */
export function scoreLayeredChunks(
  headsAt: (layer: number) => EmbeddingHeadsFile['heads'],
  chunks: { embedding: ArrayLike<number>; layer: number }[],
  fallback: Partial<Record<LocalTextSignal, number>>,
): Record<LocalTextSignal, number> {
  const byLayer = new Map<number, ArrayLike<number>[]>();
  for (const c of chunks) byLayer.set(c.layer, [...(byLayer.get(c.layer) ?? []), c.embedding]);
  let out: Record<LocalTextSignal, number> | null = null;
  for (const [layer, embeddings] of byLayer) {
    const s = scoreChunks(headsAt(layer), embeddings, fallback);
    if (out) for (const k of LOCAL_TEXT_SIGNALS) out[k] = Math.max(out[k], s[k]);
    else out = s;
  }
  return out ?? scoreChunks(headsAt(0), [], fallback);
}
