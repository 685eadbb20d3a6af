/**
 * From embedded rows to calibrated heads: which signals get a head, LODO choice of λ,
 * the final fit on every training row, Platt calibration on dev.
 */
import { EmbeddingHead } from '../../libs/providers/src/local-embedding/embedding-heads';
import { REPORTED_WEIGHT } from './corpus/corpus';
import { CorpusExample, SIGNALS, Signal } from './corpus/example';
import { EMBEDDING_DIM } from './embedding-cache';
import { LabelOptions } from './embedding-data';
import { LodoResult, SignalRows, headData, lodoSelect } from './embedding-lodo';
import { DEFAULT_FIT, LinearHead, fitHead, logits } from './embedding-logreg';
import { fitPlatt } from './metrics';

const PARENT: Partial<Record<Signal, Signal>> = {
  sexual_minors: 'sexual',
  hate_threat: 'hate',
  insult: 'harassment',
  violence_threat: 'violence',
  self_harm_intent: 'self_harm',
};

/** a signal gets a head only when its λ could be cross-validated on this many held-out datasets */
export const MIN_LODO_FOLDS = 2;

/** a signal gets a head with at least this many strong positives among training rows */
export const MIN_HEAD_POSITIVES = 40;

export interface FittedHeads {
  heads: Partial<Record<Signal, EmbeddingHead>>;
  lodo: LodoResult[];
  /** the uncalibrated fits, for warm starts */
  raw: Partial<Record<Signal, LinearHead>>;
  positives: Record<string, number>;
  lambdas: Partial<Record<Signal, number>>;
}

export function strongPositives(examples: CorpusExample[], idx: number[], s: Signal): number {
  return idx.filter((i) => examples[i].labels[s]?.y === 1 && examples[i].labels[s]!.w >= REPORTED_WEIGHT).length;
}

export function fitAllHeads(args: {
  train: SignalRows;
  dev: SignalRows;
  labels: LabelOptions;
  lambdas: number[];
  /** skip LODO: use this λ for every head */
  fixedLambda?: number;
  /** experiments: fit only these signals */
  only?: Signal[];
  /** experiments: λ per signal chosen earlier (no LODO) */
  reuse?: Partial<Record<Signal, number>>;
  log: (m: string) => void;
}): FittedHeads {
  const { train, dev, labels, lambdas, log } = args;
  const heads: Partial<Record<Signal, EmbeddingHead>> = {};
  const raw: Partial<Record<Signal, LinearHead>> = {};
  const lodo: LodoResult[] = [];
  const positives: Record<string, number> = {};
  const chosen: Partial<Record<Signal, number>> = {};
  for (const s of SIGNALS) {
    if (args.only && !args.only.includes(s)) continue;
    positives[s] = strongPositives(train.examples, train.idx, s);
    if (positives[s] < MIN_HEAD_POSITIVES) {
      log(`  ${s}: ${positives[s]} strong positives, no head (the n-gram model's score is used)`);
      continue;
    }
    const t0 = Date.now();
    const parent = PARENT[s];
    const parentLambda = parent ? lodo.find((l) => l.signal === parent)?.lambda : undefined;
    const given = args.fixedLambda ?? args.reuse?.[s];
    const sel = given !== undefined ? undefined : lodoSelect(train, s, labels, lambdas, log, parentLambda);
    if (sel) lodo.push(sel);
    if (sel && sel.folds.length < MIN_LODO_FOLDS) {
      // positives from a single source: the head would learn that source's style, and
      // nothing can tell whether it transfers (self_harm_intent is Reddit C-SSRS only)
      log(`  ${s}: ${sel.folds.length} LODO fold(s), no head (the n-gram model's score is used)`);
      continue;
    }
    const lambda = sel?.lambda ?? given!;
    chosen[s] = lambda;
    const head = fitHead(headData(train, s, labels), { ...DEFAULT_FIT, lambda });
    raw[s] = head;
    heads[s] = { w: Array.from(head.w, sig6), b: sig6(head.b), platt: calibrate(head, dev, s) };
    log(`  ${s}: λ=${lambda}, platt ${JSON.stringify(heads[s]!.platt)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  return { heads, lodo, raw, positives, lambdas: chosen };
}

/** Platt on every labelled dev row, weighted by label weight (as the n-gram model is
 * calibrated): the strong labels alone would adopt the base rate of a few datasets. */
export function calibrate(head: LinearHead, dev: SignalRows, s: Signal): { a: number; b: number } {
  const rowsK: number[] = [];
  const y: number[] = [];
  const w: number[] = [];
  dev.idx.forEach((i, k) => {
    const l = dev.examples[i].labels[s];
    if (!l || l.w <= 0) return;
    rowsK.push(k);
    y.push(l.y);
    w.push(l.w);
  });
  const z = logits(head, dev.X, EMBEDDING_DIM, rowsK);
  const c = fitPlatt(z, y, w);
  return { a: sig6(c.a), b: sig6(c.b) };
}

export function sig6(x: number): number {
  return Number(x.toPrecision(6));
}
