/**
 * The early exits' heads (learnt from the full model's answers) and the choice of the exit
 * plan on the dev split; the test split's figures for the model card.
 */
import { EmbeddingHead, EmbeddingHeadsFile, clearedByCascade, scoreChunks } from '../../libs/providers/src/local-embedding/embedding-heads';
import { EmbeddingExitFile, ExitLayer, logit } from '../../libs/providers/src/local-embedding/embedding-exit';
import { LOCAL_TEXT_CATEGORIES, LOCAL_TEXT_SIGNAL_FOLDING, LocalTextCategory, LocalTextSignal, foldLocalTextSignals } from '@cds/providers';
import { numberArg } from './cli-options';
import { EMBEDDING_DIM, EmbeddingCache } from './embedding-cache';
import { LinearHead } from './embedding-logreg';
import { DEFAULT_POLICY_THRESHOLDS } from './embedding-scoring';
import { ExitRows, chunkVectors, stack } from './exit-data';
import { printCurves } from './exit-curve';
import { ExitFigures, PlanSim, simulate } from './exit-plan';

export interface ExitModelInput {
  heads: EmbeddingHeadsFile;
  headsId: string;
  weightsSha256: string;
  rows: { train: ExitRows; dev: ExitRows; test: ExitRows };
  candidates: number[];
  layerCaches: Map<number, EmbeddingCache>;
  finalCache: EmbeddingCache;
  args: Record<string, string>;
  log: (m: string) => void;
}

/** The full model's pre-sigmoid value a·(w·x + b) + b′ for one head and embedding. */
function calibratedLogit(h: EmbeddingHead, x: ArrayLike<number>): number {
  let z = h.b;
  for (let j = 0; j < h.w.length; j++) z += h.w[j] * x[j];
  return h.platt.a * z + h.platt.b;
}

const clip = (u: number) => Math.max(-10, Math.min(10, u));
/** Margins (logits) tried for each exit. */
const MARGINS = Array.from({ length: 25 }, (_, i) => i * 0.25);

/** One split, ready to simulate: per row, per chunk, the full model's signals and each
 * candidate layer's estimates and distance to the nearest threshold. */
export interface SplitData {
  rows: ExitRows;
  /** the signals with a head (the others are the n-gram model's, whatever the layer) */
  signals: LocalTextSignal[];
  /** rows the n-gram cascade clears: never embedded, never changed */
  cleared: boolean[];
  full: Record<LocalTextSignal, number>[];
  chunkFull: Record<LocalTextSignal, number>[][];
  /** [layer] -> per row, per chunk: estimated signals, and the smallest |logit estimate −
   * logit threshold| over the probed signals (the largest margin at which it leaves), and
   * the smallest logit threshold − logit estimate (how far below every threshold it is) */
  early: Map<number, { signals: Record<LocalTextSignal, number>[][]; distance: number[][]; belowBy: number[][] }>;
  /** per row, per chunk: tokens (estimated from characters), the unit of compute */
  tokens: number[][];
}

/** `test` is null with --no-test (the test split not embedded yet: the file is written with
 * the dev split's figures only, and the card says so). */
export function fitExitModel(input: ExitModelInput): {
  file: EmbeddingExitFile;
  dev: ExitFigures;
  test: ExitFigures | null;
  plan: PlanSim;
  trainChunks: number;
} {
  const { heads, rows, candidates, layerCaches, finalCache, args, log } = input;
  const signals = Object.keys(heads.heads) as LocalTextSignal[];
  const clearBelow = heads.cascade?.clearBelow;
  const isCleared = (r: ExitRows) => r.ngram.map((n) => clearBelow !== undefined && clearedByCascade(foldLocalTextSignals(n), clearBelow));

  // 1. the full model's answers, per chunk, on the rows the cascade leaves to it
  const finalVecs = {
    train: chunkVectors(rows.train, finalCache),
    dev: chunkVectors(rows.dev, finalCache),
    test: ['dev-only', 'curve', 'no-test'].some((a) => args[a] === 'true') ? [] : chunkVectors(rows.test, finalCache),
  };
  const chunkFull = (split: keyof typeof rows) => finalVecs[split].map((cs) => cs.map((v) => scoreChunks(heads.heads, [v])));

  // 2. per candidate layer, one head per signal learning the full model's calibrated logit
  const trainCleared = isCleared(rows.train);
  const logits = (vecs: Float32Array[][], keep: (r: number) => boolean) =>
    vecs.flatMap((cs, r) => (keep(r) ? cs.map((v) => signals.map((s) => clip(calibratedLogit(heads.heads[s]!, v)))) : []));
  const trainU = logits(finalVecs.train, (r) => !trainCleared[r]);
  const devU = logits(finalVecs.dev, () => true);
  const exitHeads = new Map<number, EmbeddingHeadsFile['heads']>();
  for (const layer of candidates) {
    const X = stack(chunkVectors(rows.train, layerCaches.get(layer)!).filter((_, r) => !trainCleared[r]));
    const devX = stack(chunkVectors(rows.dev, layerCaches.get(layer)!));
    const fitted = fitRidge(X, trainU, devX, devU);
    const out: EmbeddingHeadsFile['heads'] = {};
    signals.forEach((s, i) => {
      out[s] = { w: Array.from(fitted[i].w, (x) => +x.toPrecision(7)), b: +fitted[i].b.toPrecision(7), platt: { a: 1, b: 0 } };
    });
    exitHeads.set(layer, out);
    log(`layer ${layer}: exit heads fitted on ${trainU.length} chunks`);
  }
  const trainTargets = trainU;

  // 3. the plan and margins, on dev only
  const prepare = (split: 'dev' | 'test'): SplitData => {
    const cleared = isCleared(rows[split]);
    return {
      rows: rows[split],
      signals,
      cleared,
      full: rows[split].ngram.map((n, r) => (cleared[r] ? n : scoreChunks(heads.heads, finalVecs[split][r], n))),
      chunkFull: chunkFull(split),
      early: new Map(candidates.map((l) => [l, estimates(exitHeads.get(l)!, chunkVectors(rows[split], layerCaches.get(l)!))])),
      tokens: rows[split].chunks.map((cs) => cs.map((t) => t.length / 4 + 6)),
    };
  };
  const dev = prepare('dev');
  if (args.curve === 'true') {
    printCurves(dev, candidates, log);
    return {
      file: null as unknown as EmbeddingExitFile,
      dev: simulate(dev, []),
      test: simulate(dev, []),
      plan: { exits: [], figures: simulate(dev, []) },
      trainChunks: trainU.length,
    };
  }
  const limits = {
    changed: numberArg(args, 'max-changed', 0.0025),
    auprcLoss: numberArg(args, 'max-auprc-loss', 0.0025),
    languageChanged: numberArg(args, 'max-language-changed', 0.005),
    languageAuprcLoss: numberArg(args, 'max-language-auprc-loss', 0.005),
    languageMinRows: numberArg(args, 'min-language-rows', 200),
  };
  const plan = choosePlan(dev, candidates, limits, log);
  if (!plan) throw new Error('no exit plan meets the limits on the dev split');
  log(`chosen on dev: ${plan.exits.map((e) => `layer ${e.layer} margin ${e.margin}`).join(', ')}; ${describe(plan.figures)}`);

  if (args['dev-only'] === 'true')
    return { file: null as unknown as EmbeddingExitFile, dev: plan.figures, test: plan.figures, plan, trainChunks: trainTargets.length };
  // 4. the test split, for the card
  const test = args['no-test'] === 'true' ? null : simulate(prepare('test'), plan.exits);
  if (test) log(`test: ${describe(test)}`);
  else log('test: not measured (--no-test)');
  const file: EmbeddingExitFile = {
    format: 1,
    calibratedFor: { model: input.headsId, weightsSha256: input.weightsSha256 },
    thresholds: DEFAULT_POLICY_THRESHOLDS,
    exits: plan.exits.map((e): ExitLayer => ({ layer: e.layer, margin: e.margin, heads: exitHeads.get(e.layer)! })),
  };
  return { file, dev: plan.figures, test, plan, trainChunks: trainTargets.length };
}

function describe(f: ExitFigures): string {
  const left = Object.entries(f.leftAt)
    .map(([l, n]) => `${l}: ${n}`)
    .join(', ');
  return `chunks left at ${left}; decisions changed ${(f.changedShare * 100).toFixed(2)} %, any-unsafe AUPRC ${f.anyUnsafe.full.toFixed(4)} -> ${f.anyUnsafe.exit.toFixed(4)}, compute ${(f.computeShare * 100).toFixed(1)} % of the full passes`;
}

/**
 * Per signal, a linear map from the layer's pooled output to the full model's calibrated
 * logit (its pre-sigmoid value, clipped to ±10): ridge regression, every signal from one
 * Gram matrix, λ per signal by the dev split's squared error. (Soft-label logistic fits
 * took ~30 s each on the shared CPU; this takes seconds per layer.)
 */
function fitRidge(X: Float32Array, U: number[][], devX: Float32Array, devU: number[][]): LinearHead[] {
  const d = EMBEDDING_DIM + 1;
  const n = U.length;
  const G = new Float64Array(d * d);
  const B = U[0].map(() => new Float64Array(d));
  const row = new Float64Array(d);
  for (let k = 0; k < n; k++) {
    for (let j = 0; j < EMBEDDING_DIM; j++) row[j] = X[k * EMBEDDING_DIM + j];
    row[EMBEDDING_DIM] = 1;
    for (let a = 0; a < d; a++) {
      const ra = row[a];
      if (ra === 0) continue;
      for (let b = a; b < d; b++) G[a * d + b] += ra * row[b];
    }
    U[k].forEach((u, s) => {
      for (let a = 0; a < d; a++) B[s][a] += row[a] * u;
    });
  }
  for (let a = 0; a < d; a++) for (let b = 0; b < a; b++) G[a * d + b] = G[b * d + a];
  const best: { head: LinearHead; err: number }[] = [];
  for (const lambda of RIDGE_LAMBDAS) {
    const A = Float64Array.from(G);
    for (let a = 0; a < EMBEDDING_DIM; a++) A[a * d + a] += lambda * n; // the bias is not penalised
    const L = cholesky(A, d);
    B.forEach((b, s) => {
      const theta = choleskySolve(L, d, b);
      const head: LinearHead = { w: theta.subarray(0, EMBEDDING_DIM), b: theta[EMBEDDING_DIM] };
      let err = 0;
      for (let k = 0; k < devU.length; k++) {
        let z = head.b;
        for (let j = 0; j < EMBEDDING_DIM; j++) z += head.w[j] * devX[k * EMBEDDING_DIM + j];
        err += (z - devU[k][s]) ** 2;
      }
      if (!best[s] || err < best[s].err) best[s] = { head, err };
    });
  }
  return best.map((b) => b.head);
}

/** λ (× rows) tried for the exit heads; the embeddings are unit vectors of 384 dimensions. */
const RIDGE_LAMBDAS = [1e-3, 1e-4, 1e-5, 1e-6];

function cholesky(A: Float64Array, d: number): Float64Array {
  const L = new Float64Array(d * d);
  for (let i = 0; i < d; i++)
    for (let j = 0; j <= i; j++) {
      let sum = A[i * d + j];
      for (let k = 0; k < j; k++) sum -= L[i * d + k] * L[j * d + k];
      L[i * d + j] = i === j ? Math.sqrt(Math.max(sum, 1e-12)) : sum / L[j * d + j];
    }
  return L;
}

function choleskySolve(L: Float64Array, d: number, b: Float64Array): Float64Array {
  const y = new Float64Array(d);
  for (let i = 0; i < d; i++) {
    let sum = b[i];
    for (let k = 0; k < i; k++) sum -= L[i * d + k] * y[k];
    y[i] = sum / L[i * d + i];
  }
  const x = new Float64Array(d);
  for (let i = d - 1; i >= 0; i--) {
    let sum = y[i];
    for (let k = i + 1; k < d; k++) sum -= L[k * d + i] * x[k];
    x[i] = sum / L[i * d + i];
  }
  return x;
}

/** Per row and chunk: the exit heads' estimates, and how far (in logits) the nearest probed
 * signal is from its category's threshold. */
function estimates(
  heads: EmbeddingHeadsFile['heads'],
  vectors: Float32Array[][],
): { signals: Record<LocalTextSignal, number>[][]; distance: number[][]; belowBy: number[][] } {
  const probes = LOCAL_TEXT_CATEGORIES.flatMap((c) =>
    LOCAL_TEXT_SIGNAL_FOLDING[c].filter((s) => heads[s]).map((s) => [s, c] as [LocalTextSignal, LocalTextCategory]),
  );
  const signals = vectors.map((cs) => cs.map((v) => scoreChunks(heads, [v])));
  const gap = (s: Record<LocalTextSignal, number>, sig: LocalTextSignal, c: LocalTextCategory) =>
    logit(DEFAULT_POLICY_THRESHOLDS[c]) - logit(Math.min(1 - 1e-12, Math.max(1e-12, s[sig])));
  const distance = signals.map((cs) => cs.map((s) => Math.min(...probes.map(([sig, c]) => Math.abs(gap(s, sig, c))))));
  const belowBy = signals.map((cs) => cs.map((s) => Math.min(...probes.map(([sig, c]) => gap(s, sig, c)))));
  return { signals, distance, belowBy };
}

/** The cheapest plan (one exit, or two) and margins that keep within the limits on `dev`. */
function choosePlan(dev: SplitData, candidates: number[], limits: Limits, log: (m: string) => void): PlanSim | null {
  const plans: number[][] = [...candidates.map((l) => [l]), ...candidates.flatMap((a, i) => candidates.slice(i + 1).map((b) => [a, b]))];
  let best: PlanSim | null = null;
  for (const layers of plans) {
    const grids = layers.length === 1 ? MARGINS.map((m) => [m]) : MARGINS.flatMap((a) => MARGINS.map((b) => [a, b]));
    let bestHere: PlanSim | null = null;
    for (const margins of grids) {
      const exits = layers.map((layer, i) => ({ layer, margin: margins[i] }));
      const figures = simulate(dev, exits);
      if (!withinLimits(figures, limits)) continue;
      if (!bestHere || figures.computeShare < bestHere.figures.computeShare) bestHere = { exits, figures };
    }
    if (bestHere)
      log(
        `  plan ${layers.join('+')}: margins ${bestHere.exits.map((e) => e.margin).join(', ')}, compute ${(bestHere.figures.computeShare * 100).toFixed(1)} %`,
      );
    else log(`  plan ${layers.join('+')}: no margin within the limits`);
    if (bestHere && (!best || bestHere.figures.computeShare < best.figures.computeShare)) best = bestHere;
  }
  return best;
}

/** Overall, and in every language of at least `languageMinRows` dev rows (below, one
 * changed decision is already more than 0.5 %). */
interface Limits {
  changed: number;
  auprcLoss: number;
  languageChanged: number;
  languageAuprcLoss: number;
  languageMinRows: number;
}

function withinLimits(f: ExitFigures, l: Limits): boolean {
  if (f.changedShare > l.changed || f.anyUnsafe.full - f.anyUnsafe.exit > l.auprcLoss) return false;
  for (const lang of Object.values(f.byLanguage)) {
    if (lang.rows < l.languageMinRows) continue;
    if (lang.changed / lang.rows > l.languageChanged) return false;
    if (lang.anyUnsafe && lang.anyUnsafe.full - lang.anyUnsafe.exit > l.languageAuprcLoss) return false;
  }
  return true;
}
