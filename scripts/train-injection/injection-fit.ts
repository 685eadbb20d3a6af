/**
 * Fitting and measuring the prompt-attack heads: weighted logistic regression on one
 * layer's embeddings (the moderation heads' L-BFGS fitter), Platt calibration on
 * out-of-fold scores, and the cross-source folds (train on every other source, measure on
 * the one left out).
 */
import { createHash } from 'crypto';
import { DEFAULT_FIT, fitHead, HeadData, LinearHead, logits } from '../train-text/embedding-logreg';
import { fitPlatt } from '../train-text/metrics';
import { DIM, LayerCache } from './injection-cache';
import { InjectionLabel, InjectionRow } from './injection-sources';

export type HeadName = 'prompt_injection' | 'jailbreak';
export const HEAD_LABEL: Record<HeadName, InjectionLabel> = { prompt_injection: 'injection', jailbreak: 'jailbreak' };

export interface Calibrated {
  head: LinearHead;
  platt: { a: number; b: number };
}

export function matrix(rows: InjectionRow[], cache: LayerCache, layer: number): Float32Array {
  const X = new Float32Array(rows.length * DIM);
  rows.forEach((r, i) => {
    const v = cache.get(r.text, layer);
    if (!v) throw new Error(`not embedded: ${r.text.slice(0, 60)}`);
    X.set(v, i * DIM);
  });
  return X;
}

/** Rows a head learns from (its attack label and the benign rows), with weights: each
 * source-and-label group weighs √n (so a big benign set does not drown a small one), then
 * positives and negatives weigh the same in total. */
/** Benign sets in the target domain (instructions addressed to a model that attack nothing):
 * weighed this many times their share, so the many plain questions do not teach the heads
 * that any instruction to a model is an attack. */
const DOMAIN_NEGATIVE_WEIGHT: Record<string, number> = { hardneg: 4, skills: 4, cursorrules: 4, awesome: 2, peguide: 2 };

export function headData(rows: InjectionRow[], X: Float32Array, idx: number[], name: HeadName): HeadData {
  const use = idx.filter((i) => rows[i].label === 'benign' || rows[i].label === HEAD_LABEL[name]);
  const groups = new Map<string, number>();
  for (const i of use) groups.set(`${rows[i].source} ${rows[i].label}`, (groups.get(`${rows[i].source} ${rows[i].label}`) ?? 0) + 1);
  const c = new Float64Array(use.length);
  const y = new Uint8Array(use.length);
  let pos = 0;
  let neg = 0;
  use.forEach((i, k) => {
    c[k] = (DOMAIN_NEGATIVE_WEIGHT[rows[i].source] ?? 1) / Math.sqrt(groups.get(`${rows[i].source} ${rows[i].label}`)!);
    y[k] = rows[i].label === 'benign' ? 0 : 1;
    if (y[k]) pos += c[k];
    else neg += c[k];
  });
  use.forEach((_, k) => (c[k] *= y[k] ? use.length / 2 / pos : use.length / 2 / neg));
  return { X, dim: DIM, rows: Int32Array.from(use), y, c };
}

const CAL_FOLDS = 3;
const fold = (text: string, k: number) => parseInt(createHash('sha1').update(text).digest('hex').slice(0, 8), 16) % k;

/** Fits a head and calibrates it on CAL_FOLDS-fold out-of-fold logits of the same rows. */
export function fitCalibrated(rows: InjectionRow[], X: Float32Array, idx: number[], name: HeadName, lambda: number): Calibrated {
  const all = headData(rows, X, idx, name);
  const head = fitHead(all, { ...DEFAULT_FIT, lambda });
  const z: number[] = [];
  const y: number[] = [];
  const w: number[] = [];
  for (let f = 0; f < CAL_FOLDS; f++) {
    const train = idx.filter((i) => fold(rows[i].text, CAL_FOLDS) !== f);
    const test = headData(
      rows,
      X,
      idx.filter((i) => fold(rows[i].text, CAL_FOLDS) === f),
      name,
    );
    const h = fitHead(headData(rows, X, train, name), { ...DEFAULT_FIT, lambda, init: head });
    const zs = logits(h, X, DIM, test.rows);
    zs.forEach((v, k) => (z.push(v), y.push(test.y[k]), w.push(test.c[k])));
  }
  return { head, platt: fitPlatt(z, y, w) };
}

export interface FoldResult {
  source: string;
  attacks: number;
  caught: number;
  benign: number;
  flagged: number;
}

/** The raw logit of row i. */
export function logit(head: LinearHead, X: Float32Array, i: number): number {
  let z = head.b;
  for (let j = 0; j < DIM; j++) z += head.w[j] * X[i * DIM + j];
  return z;
}

/** Leave one source out: both heads fitted on the others (balanced weights, so the decision
 * boundary is logit 0, the shipped threshold), the left-out source's rows caught when
 * either head's logit is at or above 0. */
export function crossSource(rows: InjectionRow[], X: Float32Array, lambda: number): FoldResult[] {
  const sources = [...new Set(rows.map((r) => r.source))];
  return sources.map((source) => {
    const train = rows.map((_, i) => i).filter((i) => rows[i].source !== source);
    const test = rows.map((_, i) => i).filter((i) => rows[i].source === source);
    const heads = (['prompt_injection', 'jailbreak'] as HeadName[]).map((n) => fitHead(headData(rows, X, train, n), { ...DEFAULT_FIT, lambda }));
    const r: FoldResult = { source, attacks: 0, caught: 0, benign: 0, flagged: 0 };
    for (const i of test) {
      const hit = heads.some((h) => logit(h, X, i) >= 0);
      if (rows[i].label === 'benign') {
        r.benign++;
        if (hit) r.flagged++;
      } else {
        r.attacks++;
        if (hit) r.caught++;
      }
    }
    return r;
  });
}
