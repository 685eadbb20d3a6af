import { FeatureStore } from './feature-store';

export interface TrainOptions {
  bits: number;
  epochs: number;
  /** Adagrad base learning rate */
  lr: number;
  /** L2 strength, applied to the weights an example touches */
  l2: number;
  seed: number;
  /** probability that an example with lexicon hits is shown as "lexicon hits only" */
  lexiconView: number;
  /** per-dataset weight = min(1, sqrt(datasetCap / training examples of the dataset)) */
  datasetCap: number;
  /** positives of a signal are up-weighted by sqrt(neg / pos), at most this much */
  maxPositiveWeight: number;
  hardNegativeWeight: number;
  /** extra per-dataset multipliers (templated suites would otherwise teach "identity term = hate") */
  datasetMultipliers: Record<string, number>;
}

/**
 * Chosen on the dev split (macro AUPRC over categories, and the false-positive rate on
 * dev hard negatives): the heavy hard-negative weight and the down-weighted HateCheck
 * suites trade ~0.01 hate AUPRC for a third fewer false positives on benign identity
 * mentions; 2^19 buckets beat 2^18 by ~0.005 and keep the file under 8 MB.
 */
export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  bits: 19,
  epochs: 4,
  lr: 0.15,
  l2: 1e-6,
  seed: 20241122,
  lexiconView: 0.2,
  datasetCap: 8000,
  maxPositiveWeight: 4,
  hardNegativeWeight: 16,
  datasetMultipliers: { 'multilingual-hatecheck': 0.2, hatecheck: 0.5 },
};

/** Float weights as trained, before quantisation. */
export interface FloatModel {
  K: number;
  D: number;
  bits: number;
  /** (1 << bits) * K, bucket-major */
  W: Float32Array;
  bias: Float64Array;
  /** D * K */
  denseW: Float64Array;
}

/** mulberry32: small, fast, seeded; the only randomness in training. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle(arr: Uint32Array, rand: () => number): void {
  for (let i = arr.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = arr[i];
    arr[i] = arr[j];
    arr[j] = t;
  }
}

/**
 * Multi-head logistic regression over hashed features, Adagrad with L2, trained on the
 * examples listed in `indices`. Unlabelled (example, signal) pairs contribute nothing.
 */
export function trainModel(store: FeatureStore, indices: number[], opts: TrainOptions, log: (m: string) => void): FloatModel {
  const { K, D } = store;
  const B = 1 << opts.bits;
  const W = new Float32Array(B * K);
  const G = new Float32Array(B * K);
  const bias = new Float64Array(K);
  const Gb = new Float64Array(K);
  const denseW = new Float64Array(D * K);
  const Gd = new Float64Array(D * K);

  // per-example cost multipliers: dataset balance and hard negatives
  const dsCount = new Map<string, number>();
  for (const i of indices) dsCount.set(store.examples[i].dataset, (dsCount.get(store.examples[i].dataset) ?? 0) + 1);
  const exWeight = new Float32Array(store.size);
  for (const i of indices) {
    const e = store.examples[i];
    const ds = Math.min(1, Math.sqrt(opts.datasetCap / (dsCount.get(e.dataset) ?? 1))) * (opts.datasetMultipliers[e.dataset] ?? 1);
    exWeight[i] = ds * (e.hardNegative ? opts.hardNegativeWeight : 1);
  }
  // per-signal positive weight
  const posW = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    let pos = 0;
    let neg = 0;
    for (const i of indices) {
      const w = store.w[i * K + k] * exWeight[i];
      if (w === 0) continue;
      if (store.y[i * K + k]) pos += w;
      else neg += w;
    }
    posW[k] = pos > 0 ? Math.min(opts.maxPositiveWeight, Math.max(1, Math.sqrt(neg / pos))) : 1;
  }

  const rand = seededRandom(opts.seed);
  const order = Uint32Array.from(indices);
  const z = new Float64Array(K);
  const g = new Float64Array(K);
  const active = new Int32Array(K);
  const { offsets, buckets, dense, y, w } = store;
  const { lr, l2 } = opts;

  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    const t0 = Date.now();
    shuffle(order, rand);
    let loss = 0;
    let lossW = 0;
    for (let o = 0; o < order.length; o++) {
      const i = order[o];
      let nActive = 0;
      for (let k = 0; k < K; k++) if (w[i * K + k] > 0) active[nActive++] = k;
      if (nActive === 0) continue;
      const lexOnly = opts.lexiconView > 0 && rand() < opts.lexiconView && store.hasDense(i);
      const s = offsets[i];
      const e = lexOnly ? s : offsets[i + 1];
      const n = offsets[i + 1] - offsets[i];
      const v = n > 0 ? 1 / Math.sqrt(n) : 0;

      for (let a = 0; a < nActive; a++) z[active[a]] = 0;
      for (let f = s; f < e; f++) {
        const base = buckets[f] * K;
        for (let a = 0; a < nActive; a++) {
          const k = active[a];
          z[k] += W[base + k];
        }
      }
      for (let a = 0; a < nActive; a++) {
        const k = active[a];
        let zz = bias[k] + z[k] * v;
        for (let j = 0; j < D; j++) if (dense[i * D + j]) zz += denseW[j * K + k];
        const p = 1 / (1 + Math.exp(-zz));
        const target = y[i * K + k];
        const cost = w[i * K + k] * exWeight[i] * (target ? posW[k] : 1);
        g[k] = cost * (p - target);
        loss += -cost * Math.log(Math.max(1e-12, target ? p : 1 - p));
        lossW += cost;
      }
      for (let f = s; f < e; f++) {
        const base = buckets[f] * K;
        for (let a = 0; a < nActive; a++) {
          const idx = base + active[a];
          const gr = g[active[a]] * v + l2 * W[idx];
          G[idx] += gr * gr;
          W[idx] -= (lr * gr) / (Math.sqrt(G[idx]) + 1e-8);
        }
      }
      for (let a = 0; a < nActive; a++) {
        const k = active[a];
        Gb[k] += g[k] * g[k];
        bias[k] -= (lr * g[k]) / (Math.sqrt(Gb[k]) + 1e-8);
        for (let j = 0; j < D; j++) {
          if (!dense[i * D + j]) continue;
          const idx = j * K + k;
          const gr = g[k] + l2 * denseW[idx];
          Gd[idx] += gr * gr;
          denseW[idx] -= (lr * gr) / (Math.sqrt(Gd[idx]) + 1e-8);
        }
      }
    }
    log(`  epoch ${epoch + 1}/${opts.epochs}: weighted log-loss ${(loss / Math.max(lossW, 1e-9)).toFixed(4)} (${Date.now() - t0} ms)`);
  }
  return { K, D, bits: opts.bits, W, bias, denseW };
}

/**
 * int8 quantisation with one scale per signal. The scale covers the 99.999th percentile
 * of |w| so a handful of outliers cannot flatten every other weight to 0; they are clipped.
 */
export function quantize(model: FloatModel): { table: Int8Array; scales: number[] } {
  const { K, W } = model;
  const B = W.length / K;
  const table = new Int8Array(W.length);
  const scales: number[] = [];
  const abs = new Float32Array(B);
  for (let k = 0; k < K; k++) {
    for (let b = 0; b < B; b++) abs[b] = Math.abs(W[b * K + k]);
    abs.sort();
    const q = abs[Math.min(B - 1, Math.floor(B * 0.99999))] || 1e-6;
    const scale = q / 127;
    scales.push(scale);
    for (let b = 0; b < B; b++) {
      const r = Math.round(W[b * K + k] / scale);
      table[b * K + k] = r > 127 ? 127 : r < -127 ? -127 : r;
    }
  }
  return { table, scales };
}
