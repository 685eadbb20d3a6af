/**
 * Per-signal head fitting with the L2 strength chosen by leave-one-dataset-out (LODO)
 * cross-validation: for each dataset that has both strong positives and strong negatives
 * of the signal, fit on the other datasets' training rows and measure AUPRC on that
 * dataset's training rows; λ is the one with the best mean over those datasets. A head
 * that must transfer to text from an unseen source is what the service needs, and
 * in-distribution CV would pick a λ that memorises each dataset's style.
 */
import { REPORTED_WEIGHT } from './corpus/corpus';
import { CorpusExample, Signal } from './corpus/example';
import { EMBEDDING_DIM } from './embedding-cache';
import { LabelOptions, trainingLabel } from './embedding-data';
import { DEFAULT_FIT, HeadData, LinearHead, fitHead, logits } from './embedding-logreg';
import { reweightHeadData } from './embedding-reweight';
import { averagePrecision } from './metrics';

/** the LODO optimum sat at the small end of [1e-2, 1e-4] for every signal on the first run */
export const DEFAULT_LAMBDAS = [1e-3, 3e-4, 1e-4, 3e-5, 1e-5];
/** positives of a signal are up-weighted by sqrt(neg / pos), at most this much */
const MAX_POSITIVE_BOOST = 4;
/** a dataset takes part in a signal's LODO when it has this many strong positives and negatives */
const MIN_FOLD_CLASS = 15;

/** One signal's training rows: `X` holds one embedding per entry of `idx` (same order). */
export interface SignalRows {
  examples: CorpusExample[];
  idx: number[];
  X: Float32Array;
}

export function headData(rows: SignalRows, signal: Signal, labels: LabelOptions, keep: (ex: CorpusExample) => boolean = () => true): HeadData {
  const r: number[] = [];
  const y: number[] = [];
  const c: number[] = [];
  rows.idx.forEach((i, k) => {
    const ex = rows.examples[i];
    if (!keep(ex)) return;
    const l = trainingLabel(ex, signal, labels);
    if (!l) return;
    r.push(k);
    y.push(l.y);
    c.push(l.w);
  });
  let pos = 0;
  let neg = 0;
  y.forEach((v, k) => (v ? (pos += c[k]) : (neg += c[k])));
  const boost = pos > 0 ? Math.min(MAX_POSITIVE_BOOST, Math.max(1, Math.sqrt(neg / pos))) : 1;
  const data: HeadData = {
    X: rows.X,
    dim: EMBEDDING_DIM,
    rows: Int32Array.from(r),
    y: Uint8Array.from(y),
    c: Float64Array.from(c, (w, k) => (y[k] ? w * boost : w)),
  };
  // over the rows kept (a LODO fold's training side is reweighted without the held-out set)
  return labels.reweight?.signal === signal ? reweightHeadData(data, rows.examples, rows.idx, labels.reweight) : data;
}

/** Strong (reported) labels of `signal` among rows of one dataset: [row positions, labels]. */
export function strongRows(rows: SignalRows, signal: Signal, dataset: string): { pos: number[]; y: number[] } {
  const pos: number[] = [];
  const y: number[] = [];
  rows.idx.forEach((i, k) => {
    const ex = rows.examples[i];
    const l = ex.labels[signal];
    if (ex.dataset !== dataset || !l || l.w < REPORTED_WEIGHT) return;
    pos.push(k);
    y.push(l.y);
  });
  return { pos, y };
}

export interface LodoResult {
  signal: Signal;
  lambda: number;
  /** mean LODO AUPRC per λ tried */
  byLambda: { lambda: number; meanAuprc: number }[];
  /** per held-out dataset at the chosen λ */
  folds: { dataset: string; n: number; positives: number; auprc: number }[];
}

/** `fallback`: the λ to use when fewer than two datasets can be held out (one source of
 * positives cannot be cross-validated): the parent signal's. */
export function lodoSelect(rows: SignalRows, signal: Signal, labels: LabelOptions, lambdas: number[], log: (m: string) => void, fallback?: number): LodoResult {
  const datasets = [...new Set(rows.idx.map((i) => rows.examples[i].dataset))].sort();
  const folds = datasets
    .map((d) => ({ d, ...strongRows(rows, signal, d) }))
    .filter((f) => f.y.filter((v) => v === 1).length >= MIN_FOLD_CLASS && f.y.filter((v) => v === 0).length >= MIN_FOLD_CLASS);
  const sorted = [...lambdas].sort((a, b) => b - a);
  const scores = new Map<number, { dataset: string; n: number; positives: number; auprc: number }[]>();
  for (const lam of sorted) scores.set(lam, []);
  for (const f of folds) {
    const data = headData(rows, signal, labels, (ex) => ex.dataset !== f.d);
    let init: LinearHead | undefined;
    for (const lam of sorted) {
      const head = fitHead(data, { ...DEFAULT_FIT, lambda: lam, init });
      init = head;
      const z = logits(head, rows.X, EMBEDDING_DIM, f.pos);
      scores.get(lam)!.push({ dataset: f.d, n: f.y.length, positives: f.y.filter(Boolean).length, auprc: averagePrecision(z, f.y) });
    }
    // one line per held-out dataset: a long LODO shows its figures as it goes
    log(`    ${signal} without ${f.d}: ${sorted.map((lam) => `λ=${lam} ${scores.get(lam)!.at(-1)!.auprc.toFixed(3)}`).join(', ')}`);
  }
  const byLambda = sorted.map((lambda) => {
    const s = scores.get(lambda)!;
    return { lambda, meanAuprc: s.length > 0 ? s.reduce((a, x) => a + x.auprc, 0) / s.length : NaN };
  });
  // fewer than two folds: nothing to choose from (a lone held-out source of positives
  // leaves no positive to train on), take the fallback or the middle of the grid
  const best = folds.length < 2 ? (fallback ?? sorted[Math.floor(sorted.length / 2)]) : byLambda.reduce((a, b) => (b.meanAuprc > a.meanAuprc ? b : a)).lambda;
  log(
    `  ${signal}: ${folds.length} LODO folds; ` +
      byLambda.map((b) => `λ=${b.lambda}: ${Number.isNaN(b.meanAuprc) ? '-' : b.meanAuprc.toFixed(3)}`).join(', ') +
      ` -> λ=${best}`,
  );
  return { signal, lambda: best, byLambda, folds: scores.get(best)! };
}
