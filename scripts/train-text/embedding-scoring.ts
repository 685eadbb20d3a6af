/**
 * Scores corpus rows the way the runtime does (heads on every chunk, max over chunks,
 * n-gram scores for signals without a head), and the cascade rule on top.
 */
import { EmbeddingHeadsFile, clearedByCascade, scoreChunks } from '../../libs/providers/src/local-embedding/embedding-heads';
import { LOCAL_TEXT_CATEGORIES, LocalTextCategory, LocalTextClassifier, foldLocalTextSignals } from '@cds/providers';
import { CorpusExample } from './corpus/example';
import { Scored, categoryLabel } from './evaluate';

/** The built-in policy's thresholds (libs/checks builtin-policies.ts, policy `default`). */
export const DEFAULT_POLICY_THRESHOLDS: Record<LocalTextCategory, number> = {
  sexual: 0.8,
  hate: 0.7,
  harassment: 0.7,
  violence: 0.7,
  'self-harm': 0.5,
};

export function ngramScored(ngram: LocalTextClassifier, examples: CorpusExample[], idx: number[]): Scored[] {
  return idx.map((i) => {
    const signals = ngram.score(examples[i].text, examples[i].lang);
    return { ex: examples[i], signals, categories: foldLocalTextSignals(signals) };
  });
}

export function embeddingScored(heads: EmbeddingHeadsFile['heads'], chunks: Float32Array[][], ngram: Scored[]): Scored[] {
  return ngram.map((n, r) => {
    const signals = scoreChunks(heads, chunks[r], n.signals);
    return { ex: n.ex, signals, categories: foldLocalTextSignals(signals) };
  });
}

/** What the cascade answers: the n-gram scores for the rows it clears, else the embedding's. */
export function cascadeScored(emb: Scored[], ngram: Scored[], clearBelow: Record<LocalTextCategory, number>): { scored: Scored[]; cleared: number } {
  let cleared = 0;
  const scored = emb.map((e, r) => {
    if (!clearedByCascade(ngram[r].categories, clearBelow)) return e;
    cleared++;
    return ngram[r];
  });
  return { scored, cleared };
}

export const uniform = (t: number): Record<LocalTextCategory, number> =>
  Object.fromEntries(LOCAL_TEXT_CATEGORIES.map((c) => [c, t])) as Record<LocalTextCategory, number>;

/** Per category: strong positives caught at the policy threshold by `a` and by `b`. */
export function recallAtPolicy(scored: Scored[], c: LocalTextCategory): { positives: number; caught: number; recall: number } {
  let positives = 0;
  let caught = 0;
  for (const s of scored) {
    if (categoryLabel(s.ex, c) !== 1) continue;
    positives++;
    if (s.categories[c] >= DEFAULT_POLICY_THRESHOLDS[c]) caught++;
  }
  return { positives, caught, recall: positives > 0 ? caught / positives : NaN };
}

/** Relative recall lost at the policy thresholds by clearing with `clearBelow`, worst category. */
export function cascadeRecallLoss(
  emb: Scored[],
  ngram: Scored[],
  clearBelow: Record<LocalTextCategory, number>,
): { worst: number; byCategory: Record<string, number>; clearedShare: number } {
  const { scored, cleared } = cascadeScored(emb, ngram, clearBelow);
  const byCategory: Record<string, number> = {};
  let worst = 0;
  for (const c of LOCAL_TEXT_CATEGORIES) {
    const full = recallAtPolicy(emb, c);
    const cas = recallAtPolicy(scored, c);
    const loss = full.caught > 0 ? (full.caught - cas.caught) / full.caught : 0;
    byCategory[c] = loss;
    worst = Math.max(worst, loss);
  }
  return { worst, byCategory, clearedShare: cleared / Math.max(1, emb.length) };
}

/** The highest uniform clearing threshold whose recall loss (every category, at the policy
 * thresholds) stays within `maxLoss` on these rows; null when even the lowest loses more. */
export function chooseClearBelow(
  emb: Scored[],
  ngram: Scored[],
  maxLoss: number,
  grid = [0.3, 0.25, 0.2, 0.15, 0.12, 0.1, 0.08, 0.06, 0.05, 0.04, 0.03, 0.02],
): number | null {
  for (const t of grid) if (cascadeRecallLoss(emb, ngram, uniform(t)).worst <= maxLoss) return t;
  return null;
}
