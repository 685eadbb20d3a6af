import { LOCAL_TEXT_CATEGORIES, LOCAL_TEXT_SIGNAL_FOLDING, LocalTextCategory, LocalTextClassifier, foldLocalTextSignals } from '@cds/providers';
import { REPORTED_WEIGHT } from './corpus/corpus';
import { CorpusExample, SIGNALS, Signal } from './corpus/example';
import { BinaryMetrics, binaryMetrics } from './metrics';

export interface Scored {
  ex: CorpusExample;
  signals: Record<string, number>;
  categories: Record<LocalTextCategory, number>;
}

export function scoreExamples(classifier: LocalTextClassifier, examples: CorpusExample[]): Scored[] {
  return examples.map((ex) => {
    const signals = classifier.score(ex.text, ex.lang);
    return { ex, signals, categories: foldLocalTextSignals(signals) };
  });
}

/** The category's primary signal (same name, `self-harm` -> `self_harm`). */
export const PRIMARY: Record<LocalTextCategory, Signal> = {
  sexual: 'sexual',
  hate: 'hate',
  harassment: 'harassment',
  violence: 'violence',
  'self-harm': 'self_harm',
};

/**
 * Reported label of a category: 1 if any of its signals has a reported positive, 0 if
 * its primary signal has a reported negative, otherwise unknown (not evaluated).
 */
export function categoryLabel(ex: CorpusExample, category: LocalTextCategory): 0 | 1 | undefined {
  for (const s of LOCAL_TEXT_SIGNAL_FOLDING[category]) {
    const l = ex.labels[s];
    if (l && l.y === 1 && l.w >= REPORTED_WEIGHT) return 1;
  }
  const p = ex.labels[PRIMARY[category]];
  return p && p.y === 0 && p.w >= REPORTED_WEIGHT ? 0 : undefined;
}

export function signalLabel(ex: CorpusExample, signal: Signal): 0 | 1 | undefined {
  const l = ex.labels[signal];
  return l && l.w >= REPORTED_WEIGHT ? l.y : undefined;
}

export function categoryMetrics(scored: Scored[], category: LocalTextCategory): BinaryMetrics | undefined {
  const s: number[] = [];
  const y: number[] = [];
  for (const r of scored) {
    const l = categoryLabel(r.ex, category);
    if (l === undefined) continue;
    s.push(r.categories[category]);
    y.push(l);
  }
  return y.length > 0 ? binaryMetrics(s, y) : undefined;
}

export function signalMetrics(scored: Scored[], signal: Signal): BinaryMetrics | undefined {
  const s: number[] = [];
  const y: number[] = [];
  for (const r of scored) {
    const l = signalLabel(r.ex, signal);
    if (l === undefined) continue;
    s.push(r.signals[signal]);
    y.push(l);
  }
  return y.length > 0 ? binaryMetrics(s, y) : undefined;
}

/** Mean AUPRC over the categories that have positives: the single number used to compare runs. */
export function macroAuprc(scored: Scored[]): number {
  const vals = LOCAL_TEXT_CATEGORIES.map((c) => categoryMetrics(scored, c)).filter((m): m is BinaryMetrics => m !== undefined && m.positives > 0);
  return vals.reduce((a, m) => a + m.auprc, 0) / Math.max(1, vals.length);
}

export function summarize(scored: Scored[]): string {
  const parts = LOCAL_TEXT_CATEGORIES.map((c) => {
    const m = categoryMetrics(scored, c);
    return m ? `${c} AP ${m.auprc.toFixed(3)} F1 ${m.f1.toFixed(3)} (${m.positives}/${m.n})` : `${c} -`;
  });
  return parts.join(' | ');
}

export { SIGNALS };
