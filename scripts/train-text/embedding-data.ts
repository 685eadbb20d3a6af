/**
 * Which corpus rows the embedding heads see, and the label fixes applied on top of the
 * shared dataset loaders (corpus/*.loaders.ts, which the n-gram model keeps using as is).
 */
import { createHash } from 'crypto';
import { REPORTED_WEIGHT } from './corpus/corpus';
import { CorpusExample, Label, SIGNALS, Signal, Split } from './corpus/example';
import type { Reweighting } from './embedding-reweight';

/** Rows embedded per dataset and split; `byDataset` overrides the default. */
export interface RowCaps {
  train: number;
  dev: number;
  test: number;
  byDataset: Record<string, Partial<Record<Split, number>>>;
}

/** ~57k training rows. RTP-LX gets more: it is the only category-labelled text in most of
 * the 17 languages. OffensEval-TR has no category labels (only offensive/not). */
export const DEFAULT_ROW_CAPS: RowCaps = {
  train: 3000,
  dev: 500,
  test: 1500,
  byDataset: {
    rtp_lx: { train: 8000, dev: 1500, test: 3000 },
    'multilingual-hatecheck': { test: 2000 },
    offenseval2020_tr: { train: 2000 },
  },
};

/** Signals whose strong positives are scarce: always kept, whatever the cap. */
const SCARCE: Signal[] = ['sexual', 'sexual_minors', 'self_harm', 'self_harm_intent', 'violence', 'violence_threat', 'hate_threat'];

/**
 * Deterministic capped sample per (dataset, split): every hard negative and every strong
 * positive of a scarce signal, then the rest in hash order up to the cap.
 */
export function selectRows(examples: CorpusExample[], split: Split, caps: RowCaps = DEFAULT_ROW_CAPS): number[] {
  const byDataset = new Map<string, number[]>();
  examples.forEach((e, i) => {
    if (e.split !== split) return;
    const list = byDataset.get(e.dataset) ?? [];
    list.push(i);
    byDataset.set(e.dataset, list);
  });
  const out: number[] = [];
  for (const [dataset, idx] of byDataset) {
    const cap = caps.byDataset[dataset]?.[split] ?? caps[split];
    if (idx.length <= cap) {
      out.push(...idx);
      continue;
    }
    const keep = (i: number) =>
      examples[i].hardNegative !== undefined || SCARCE.some((s) => examples[i].labels[s]?.y === 1 && examples[i].labels[s]!.w >= REPORTED_WEIGHT);
    const forced = idx.filter(keep);
    const rest = idx.filter((i) => !keep(i)).sort((a, b) => rank(examples[a]) - rank(examples[b]));
    out.push(...forced, ...rest.slice(0, Math.max(0, cap - forced.length)));
  }
  return out.sort((a, b) => a - b);
}

function rank(e: CorpusExample): number {
  return createHash('sha1').update(`cap:${e.dataset}:${e.text}`).digest().readUInt32BE(0);
}

/** Davidson's "offensive" tweets (77% of the set) are mostly profanity, not harassment. */
export type DavidsonOffensive = 'weak-positive' | 'unlabelled' | 'weak-negative';

export interface LabelOptions {
  /** the loaders' mapping is `weak-positive` (harassment 0.3). Measured by LODO mean AUPRC
   * (harassment / insult): weak-positive 0.467 / 0.460, unlabelled 0.468 / 0.460,
   * weak-negative 0.459 / 0.446 (model/EXPERIMENTS.md) */
  davidsonOffensive: DavidsonOffensive;
  /** weight of hard negatives (HateCheck/MHC non-hateful, XSTest safe, TOXIGEN neutral,
   * MedQuAD, supportive Reddit replies) on the signals they must stay low on */
  hardNegativeWeight: number;
  /** per-dataset weight multipliers (templated suites would otherwise teach "identity term = hate") */
  datasetMultipliers: Record<string, number>;
  /** one head's class weights moved towards equal mass per language or source
   * (embedding-reweight.ts), in every fit of that head: the LODO folds, the final fit and
   * the card's cross-dataset refits. Off by default (model/EXPERIMENTS.md) */
  reweight?: Reweighting;
  /** the (Multilingual) HateCheck non-hateful cases' hard-negative weight also on
   * harassment and insult where they are negatives (neutral and positive identity
   * mentions, counter-speech: harassing no one). Off by default (model/EXPERIMENTS.md) */
  harassmentHardNegatives?: boolean;
}

export const DEFAULT_LABEL_OPTIONS: LabelOptions = {
  davidsonOffensive: 'unlabelled',
  hardNegativeWeight: 3,
  datasetMultipliers: { 'multilingual-hatecheck': 0.5 },
};

/** Training label of one row for one signal, after the fixes; undefined = not trained on. */
export function trainingLabel(e: CorpusExample, s: Signal, o: LabelOptions): Label | undefined {
  let l = e.labels[s];
  if (e.dataset === 'davidson-hate-offensive' && (s === 'harassment' || s === 'insult') && isDavidsonOffensive(e)) {
    if (o.davidsonOffensive === 'unlabelled') l = undefined;
    else if (o.davidsonOffensive === 'weak-negative') l = { y: 0, w: 0.3 };
  }
  if (!l || l.w <= 0) return undefined;
  let w = l.w * (o.datasetMultipliers[e.dataset] ?? 1);
  if (e.hardNegative && l.y === 0 && hardNegativeScopeCovers(e.hardNegative.scope, s, o)) w *= o.hardNegativeWeight;
  return { y: l.y, w };
}

/** Davidson class 1 (offensive) rows: the loader marks them toxicity+, hate- and profanity 0.5. */
function isDavidsonOffensive(e: CorpusExample): boolean {
  return e.labels.hate?.y === 0 && e.labels.toxicity?.y === 1;
}

function hardNegativeScopeCovers(scope: 'hate' | 'self-harm' | 'any', s: Signal, o: LabelOptions): boolean {
  if (scope === 'any') return true;
  if (scope === 'hate') return s === 'hate' || s === 'hate_threat' || (o.harassmentHardNegatives === true && (s === 'harassment' || s === 'insult'));
  return s === 'self_harm' || s === 'self_harm_intent';
}

export { SIGNALS };
