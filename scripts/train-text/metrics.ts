import { PlattCalibration } from '@cds/providers';

export interface BinaryMetrics {
  n: number;
  positives: number;
  precision: number;
  recall: number;
  f1: number;
  /** average precision (area under the precision-recall curve) */
  auprc: number;
  /** false-positive rate at the threshold */
  fpr: number;
}

/** Precision/recall/F1 at `threshold` and average precision over scored binary labels. */
export function binaryMetrics(scores: ArrayLike<number>, labels: ArrayLike<number>, threshold = 0.5): BinaryMetrics {
  const n = scores.length;
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let pos = 0;
  for (let i = 0; i < n; i++) {
    const hit = scores[i] >= threshold;
    if (labels[i]) {
      pos++;
      if (hit) tp++;
      else fn++;
    } else if (hit) fp++;
  }
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = pos > 0 ? tp / pos : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  const neg = n - pos;
  return { n, positives: pos, precision, recall, f1, auprc: averagePrecision(scores, labels), fpr: neg > 0 ? fp / neg : 0 };
}

/** Average precision with tied scores handled as one step. */
export function averagePrecision(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  const idx = Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[b] - scores[a]);
  let pos = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i]) pos++;
  if (pos === 0) return NaN;
  let tp = 0;
  let seen = 0;
  let ap = 0;
  let i = 0;
  while (i < idx.length) {
    let j = i;
    let tpGroup = 0;
    while (j < idx.length && scores[idx[j]] === scores[idx[i]]) {
      if (labels[idx[j]]) tpGroup++;
      j++;
    }
    tp += tpGroup;
    seen += j - i;
    ap += (tpGroup / pos) * (tp / seen);
    i = j;
  }
  return ap;
}

/** Platt scaling: fits p = sigmoid(a*z + b) by Newton's method on weighted log-loss with Platt's target smoothing. */
export function fitPlatt(z: ArrayLike<number>, y: ArrayLike<number>, w?: ArrayLike<number>): PlattCalibration {
  let npos = 0;
  let nneg = 0;
  for (let i = 0; i < y.length; i++) {
    const wi = w ? w[i] : 1;
    if (y[i]) npos += wi;
    else nneg += wi;
  }
  if (npos === 0 || nneg === 0) return { a: 1, b: 0 };
  const tPos = (npos + 1) / (npos + 2);
  const tNeg = 1 / (nneg + 2);
  // Newton's method with backtracking line search (Lin, Lin & Weng 2007): stable even
  // when the scores separate the classes.
  const objective = (a: number, b: number) => {
    let f = 0;
    for (let i = 0; i < z.length; i++) {
      const wi = w ? w[i] : 1;
      const t = y[i] ? tPos : tNeg;
      const u = a * z[i] + b;
      // -t*log(sigmoid(u)) - (1-t)*log(1-sigmoid(u)), written to avoid overflow
      f += wi * (u >= 0 ? Math.log1p(Math.exp(-u)) + (1 - t) * u : Math.log1p(Math.exp(u)) - t * u);
    }
    return f;
  };
  let a = 1;
  let b = 0;
  let fval = objective(a, b);
  for (let iter = 0; iter < 100; iter++) {
    let ga = 0;
    let gb = 0;
    let haa = 1e-12;
    let hab = 0;
    let hbb = 1e-12;
    for (let i = 0; i < z.length; i++) {
      const wi = w ? w[i] : 1;
      const t = y[i] ? tPos : tNeg;
      const p = 1 / (1 + Math.exp(-(a * z[i] + b)));
      const d = wi * (p - t);
      const s = wi * p * (1 - p);
      ga += d * z[i];
      gb += d;
      haa += s * z[i] * z[i];
      hab += s * z[i];
      hbb += s;
    }
    if (Math.abs(ga) < 1e-7 && Math.abs(gb) < 1e-7) break;
    const det = haa * hbb - hab * hab;
    if (!(det > 0)) break;
    const da = -(hbb * ga - hab * gb) / det;
    const db = -(haa * gb - hab * ga) / det;
    const gd = ga * da + gb * db;
    let step = 1;
    let improved = false;
    while (step >= 1e-10) {
      const na = a + step * da;
      const nb = b + step * db;
      const nf = objective(na, nb);
      if (nf < fval + 1e-4 * step * gd) {
        a = na;
        b = nb;
        fval = nf;
        improved = true;
        break;
      }
      step /= 2;
    }
    if (!improved) break;
  }
  return Number.isFinite(a) && Number.isFinite(b) && a > 0 ? { a, b } : { a: 1, b: 0 };
}
