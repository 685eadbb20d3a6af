/**
 * Cross-dataset figures for the embedding heads: for every dataset, the primary head of
 * each category is refitted without that dataset (same λ as shipped, warm-started from the
 * shipped head) and tested on that dataset's held-out test rows, next to the shipped head
 * on the same rows. Any-unsafe uses the max over the five categories' calibrated scores
 * (the shipped Platt parameters applied to the refitted heads).
 */
import { EmbeddingHeadsFile, sigmoid } from '../../libs/providers/src/local-embedding/embedding-heads';
import { LOCAL_TEXT_CATEGORIES, LocalTextCategory } from '@cds/providers';
import { REPORTED_WEIGHT } from './corpus/corpus';
import { CorpusExample, Signal } from './corpus/example';
import { EMBEDDING_DIM } from './embedding-cache';
import { LabelOptions } from './embedding-data';
import { SignalRows, headData } from './embedding-lodo';
import { DEFAULT_FIT, LinearHead, fitHead } from './embedding-logreg';
import { categoryLabel, PRIMARY } from './evaluate';
import { averagePrecision } from './metrics';

export interface CrossRow {
  dataset: string;
  category: LocalTextCategory | 'any-unsafe';
  n: number;
  positives: number;
  inDistribution: number;
  withoutDataset: number;
}

/** label of "any unsafe": 1 if any category is a strong positive; 0 if none is, at least one
 * is a strong negative, and the row is not labelled toxic (a text its dataset calls
 * offensive without naming a category, such as Davidson's "offensive" tweets, is not a safe
 * text: unknown, as label-definitions.ts says) */
export function anyUnsafeLabel(ex: CorpusExample): 0 | 1 | undefined {
  const ls = LOCAL_TEXT_CATEGORIES.map((c) => categoryLabel(ex, c));
  if (ls.includes(1)) return 1;
  const toxic = ex.labels.toxicity?.y === 1 && ex.labels.toxicity.w >= REPORTED_WEIGHT;
  return ls.includes(0) && !toxic ? 0 : undefined;
}

/** A linear head's logit on a text: the max over its chunks' embeddings. */
export function maxChunkLogit(head: { w: ArrayLike<number>; b: number }, chunks: Float32Array[]): number {
  let best = -Infinity;
  for (const x of chunks) {
    let z = head.b;
    for (let j = 0; j < EMBEDDING_DIM; j++) z += head.w[j] * x[j];
    best = Math.max(best, z);
  }
  return best;
}

export function crossDataset(args: {
  train: SignalRows;
  test: { examples: CorpusExample[]; idx: number[]; chunks: Float32Array[][] };
  heads: EmbeddingHeadsFile['heads'];
  lambdas: Partial<Record<Signal, number>>;
  labels: LabelOptions;
  log: (m: string) => void;
}): CrossRow[] {
  const { train, test, heads, labels, log } = args;
  const datasets = [...new Set(test.idx.map((i) => test.examples[i].dataset))].sort();
  const out: CrossRow[] = [];
  for (const d of datasets) {
    const rows = test.idx.map((i, r) => ({ ex: test.examples[i], chunks: test.chunks[r] })).filter((r) => r.ex.dataset === d);
    const cats = LOCAL_TEXT_CATEGORIES.filter(
      (c) => heads[PRIMARY[c]] && rows.some((r) => categoryLabel(r.ex, c) === 1) && rows.some((r) => categoryLabel(r.ex, c) === 0),
    );
    const anyLabels = rows.map((r) => anyUnsafeLabel(r.ex));
    const anyEval = anyLabels.includes(1) && anyLabels.includes(0);
    if (cats.length === 0 && !anyEval) continue;
    const t0 = Date.now();
    const refit: Partial<Record<LocalTextCategory, LinearHead>> = {};
    for (const c of LOCAL_TEXT_CATEGORIES) {
      const s = PRIMARY[c];
      const shipped = heads[s];
      if (!shipped || (!cats.includes(c) && !anyEval)) continue;
      const data = headData(train, s, labels, (ex) => ex.dataset !== d);
      refit[c] = fitHead(data, { ...DEFAULT_FIT, lambda: args.lambdas[s] ?? 1e-3, init: { w: Float64Array.from(shipped.w), b: shipped.b } });
    }
    const prob = (c: LocalTextCategory, h: { w: ArrayLike<number>; b: number }, chunks: Float32Array[]) =>
      sigmoid(heads[PRIMARY[c]]!.platt.a * maxChunkLogit(h, chunks) + heads[PRIMARY[c]]!.platt.b);
    for (const c of cats) {
      const lab = rows.map((r) => categoryLabel(r.ex, c));
      const keep = rows.filter((_, k) => lab[k] !== undefined);
      const y = lab.filter((l): l is 0 | 1 => l !== undefined);
      const inD = keep.map((r) => maxChunkLogit(heads[PRIMARY[c]]!, r.chunks));
      const outD = keep.map((r) => maxChunkLogit(refit[c]!, r.chunks));
      out.push({
        dataset: d,
        category: c,
        n: y.length,
        positives: y.filter(Boolean).length,
        inDistribution: averagePrecision(inD, y),
        withoutDataset: averagePrecision(outD, y),
      });
    }
    if (anyEval) {
      const keep = rows.filter((_, k) => anyLabels[k] !== undefined);
      const y = anyLabels.filter((l): l is 0 | 1 => l !== undefined);
      const present = LOCAL_TEXT_CATEGORIES.filter((c) => refit[c]);
      const inD = keep.map((r) => Math.max(...present.map((c) => prob(c, heads[PRIMARY[c]]!, r.chunks))));
      const outD = keep.map((r) => Math.max(...present.map((c) => prob(c, refit[c]!, r.chunks))));
      out.push({
        dataset: d,
        category: 'any-unsafe',
        n: y.length,
        positives: y.filter(Boolean).length,
        inDistribution: averagePrecision(inD, y),
        withoutDataset: averagePrecision(outD, y),
      });
    }
    log(`  cross-dataset ${d}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  return out;
}
