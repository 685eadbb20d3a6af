/**
 * Evaluates the committed embedding heads on held-out test rows, next to the n-gram model
 * on the same rows, and writes libs/providers/src/local-embedding/model/MODEL_CARD.md.
 *
 *   nice npm run eval:text:embedding -- [--data-dir <dir>] [--no-cross]
 *        [--heads <dir> (another heads file and manifest; default the committed ones)]
 *        [--out <file> (default model/MODEL_CARD.md)] [--summary <file> (the headline figures as JSON)]
 *        [--baseline <summary.json> (adds a before/after section against that run's figures)] [--exclude dataset,…]
 *
 * Figures: per category and any-unsafe (AUPRC, P/R/F1 at 0.5, recall at the default
 * policy's thresholds), per language, per dataset, hard-negative false positives, the
 * cascade's clearing rate and recall cost, cross-dataset refits for every category, and
 * the hand-written 17-language set (multilingual-cases.fixtures.json) through the real scorer,
 * and surface noise: a quarter of the test rows again with hashtags, mentions, links, emoji
 * or filler the training never saw (embedding-noise.ts EVALUATION_NOISE).
 *   TEXT_WORKERS=2 embeds with two worker threads (default one)
 */
import { createHash } from 'crypto';
import { existsSync, readFileSync, writeFileSync } from 'fs';
import { join, relative } from 'path';
import { EmbeddingHeadsFile, parseEmbeddingHeads } from '../../libs/providers/src/local-embedding/embedding-heads';
import { locateE5Model } from '../../libs/providers/src/local-embedding/e5-model-files';
import { LOCAL_TEXT_CATEGORIES, LocalTextClassifier, SUPPORTED_LANGUAGES } from '@cds/providers';
import { PROJECT_ROOT, dataDirFrom, parseArgs } from './cli-options';
import { loadCorpus } from './corpus/corpus';
import { EmbeddingCache } from './embedding-cache';
import { EVALUATION_NOISE, noisyText } from './embedding-noise';
import { CrossRow, anyUnsafeLabel, crossDataset } from './embedding-cross';
import { LabelOptions, selectRows } from './embedding-data';
import { ensureEmbedded, rowEmbeddings } from './embedding-features';
import { CaseResult, runMultilingualCases } from './embedding-cases';
import { BenchResult, renderModelCard } from './embedding-report';
import { RunSummary, beforeAfterSection, definitionsSection, insertAfterIntro, summarizeRun } from './embedding-report-compare';
import { DEFAULT_POLICY_THRESHOLDS, cascadeRecallLoss, cascadeScored, embeddingScored, ngramScored, recallAtPolicy } from './embedding-scoring';
import { EMBEDDING_MANIFEST_FILE, EMBEDDING_MODEL_DIR } from './embedding-train';
import { Scored } from './evaluate';
import { CorpusExample } from './corpus/example';
import { averagePrecision } from './metrics';

export interface Manifest {
  trainedAt: string;
  trainingSeconds: number;
  labels: LabelOptions;
  data: { corpusSha256: string; rows: { train: number; dev: number }; seeds: number; seedWeight: number; noisyCopies?: number };
  heads: Record<string, { lambda: number; trainPositives: number }>;
  noHead: { signal: string; trainPositives: number; lodoFolds: number }[];
  lodo: { signal: string; lambda: number; byLambda: { lambda: number; meanAuprc: number }[]; folds: { dataset: string; auprc: number }[] }[];
  cascade: { clearBelow: Record<string, number>; maxDevRecallLoss: number } | null;
}

export function anyUnsafeAuprc(scored: Scored[]): { n: number; positives: number; auprc: number; recallAtPolicy: number } {
  const s: number[] = [];
  const y: number[] = [];
  let caught = 0;
  for (const r of scored) {
    const l = anyUnsafeLabel(r.ex);
    if (l === undefined) continue;
    s.push(Math.max(...LOCAL_TEXT_CATEGORIES.map((c) => r.categories[c])));
    y.push(l);
    if (l === 1 && LOCAL_TEXT_CATEGORIES.some((c) => r.categories[c] >= DEFAULT_POLICY_THRESHOLDS[c])) caught++;
  }
  const positives = y.filter(Boolean).length;
  return { n: y.length, positives, auprc: averagePrecision(s, y), recallAtPolicy: caught / Math.max(1, positives) };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const log = (m: string) => process.stdout.write(`${m}\n`);
  const headsDir = args.heads ?? EMBEDDING_MODEL_DIR;
  const headsPath = join(headsDir, 'embedding-heads.json');
  const heads: EmbeddingHeadsFile = parseEmbeddingHeads(JSON.parse(readFileSync(headsPath, 'utf8')));
  const manifest = JSON.parse(readFileSync(join(headsDir, EMBEDDING_MANIFEST_FILE), 'utf8')) as Manifest;
  // --exclude xsafety-insult: the before run's refits without the data added since
  const corpus = loadCorpus(dataDirFrom(args), () => undefined, args.exclude ? args.exclude.split(',') : []);
  if (corpus.corpusHash !== manifest.data.corpusSha256) log('WARNING: the data differs from what the heads were trained on (corpus hash mismatch)');
  const ov = heads.model.overlay;
  const cache = EmbeddingCache.forWeights(locateE5Model().weightsSha256, heads.model.layers, ov && { path: join(headsDir, ov.file), sha256: ov.sha256 });
  const testIdx = selectRows(corpus.examples, 'test');
  log(`scoring ${testIdx.length} held-out test rows (capped)`);
  await ensureEmbedded(corpus.examples, testIdx, cache, log);
  const testEmb = rowEmbeddings(corpus.examples, testIdx, cache);

  const ngram = LocalTextClassifier.load();
  const ng = ngramScored(ngram, corpus.examples, testIdx);
  const emb = embeddingScored(heads.heads, testEmb.chunks, ng);
  const cascade = heads.cascade ? cascadeScored(emb, ng, heads.cascade.clearBelow) : null;
  const cascadeLoss = heads.cascade ? cascadeRecallLoss(emb, ng, heads.cascade.clearBelow) : null;

  log('surface noise');
  const noise = await noiseRobustness({
    examples: corpus.examples,
    testIdx,
    emb,
    ngram: ng,
    heads,
    cache,
    classifier: ngram,
    noisyCopies: manifest.data.noisyCopies ?? 0,
    log,
  });

  let cross: CrossRow[] = [];
  if (args['no-cross'] !== 'true') {
    log('cross-dataset refits');
    const trainIdx = selectRows(corpus.examples, 'train');
    await ensureEmbedded(corpus.examples, trainIdx, cache, log);
    const train = { examples: corpus.examples, idx: trainIdx, X: rowEmbeddings(corpus.examples, trainIdx, cache).first };
    const lambdas = Object.fromEntries(Object.entries(manifest.heads).map(([s, h]) => [s, h.lambda]));
    cross = crossDataset({
      train,
      test: { examples: corpus.examples, idx: testIdx, chunks: testEmb.chunks },
      heads: heads.heads,
      lambdas,
      labels: manifest.labels,
      log,
    });
  }

  log('17-language set through the scorer');
  const cases: CaseResult[] = await runMultilingualCases({ workers: 1, ngram, headsPath });

  const benchFile = join(PROJECT_ROOT, 'bench/results/text.json');
  const bench = existsSync(benchFile) ? (JSON.parse(readFileSync(benchFile, 'utf8')) as BenchResult) : undefined;
  const md = renderModelCard({
    bench,
    manifest,
    heads,
    ngram: ng,
    emb,
    cascade: cascade && { scored: cascade.scored, cleared: cascade.cleared, loss: cascadeLoss! },
    cross,
    cases,
    languages: SUPPORTED_LANGUAGES,
    anyUnsafe: { emb: anyUnsafeAuprc(emb), ngram: anyUnsafeAuprc(ng), cascade: cascade ? anyUnsafeAuprc(cascade.scored) : null },
    recall: (s: Scored[], c) => recallAtPolicy(s, c),
    testRows: testIdx.length,
    datasets: corpus.stats.map((s) => s.name),
  });
  const summary = summarizeRun({ headsPath, emb, cross, cases, languages: SUPPORTED_LANGUAGES, anyUnsafe: anyUnsafeAuprc(emb) });
  if (args.summary) writeFileSync(args.summary, JSON.stringify(summary, null, 1) + '\n');
  const baseline = args.baseline ? (JSON.parse(readFileSync(args.baseline, 'utf8')) as RunSummary) : undefined;
  const extra = [definitionsSection(), baseline ? beforeAfterSection(baseline, summary, relative(PROJECT_ROOT, args.baseline!)) : ''].filter(Boolean);
  const out = args.out ?? join(EMBEDDING_MODEL_DIR, 'MODEL_CARD.md');
  writeFileSync(out, insertAfterIntro(md.trimEnd(), extra.join('\n\n')) + '\n\n' + noise + '\n');
  log(`wrote ${out}`);
}

/** The same test rows, clean and with surface noise, through both models: any-unsafe
 * AUPRC and recall at the default policy per category. Markdown. */
async function noiseRobustness(o: {
  examples: CorpusExample[];
  testIdx: number[];
  emb: Scored[];
  ngram: Scored[];
  heads: EmbeddingHeadsFile;
  cache: EmbeddingCache;
  classifier: LocalTextClassifier;
  noisyCopies: number;
  log: (m: string) => void;
}): Promise<string> {
  const positions = o.testIdx.map((_, k) => k).filter((k) => createHash('sha1').update(`noise-eval:${o.examples[o.testIdx[k]].text}`).digest()[0] < 64);
  const noisy: CorpusExample[] = positions.map((k) => {
    const e = o.examples[o.testIdx[k]];
    const text = noisyText(e.text, `eval:${e.dataset}:${e.text}`, EVALUATION_NOISE);
    return { ...e, text, norm: text };
  });
  const idx = noisy.map((_, k) => k);
  await ensureEmbedded(noisy, idx, o.cache, o.log);
  const ngNoisy = ngramScored(o.classifier, noisy, idx);
  const embNoisy = embeddingScored(o.heads.heads, rowEmbeddings(noisy, idx, o.cache).chunks, ngNoisy);
  const embClean = positions.map((k) => o.emb[k]);
  const ngClean = positions.map((k) => o.ngram[k]);
  const f = (x: number) => x.toFixed(3);
  const rows = [
    ['any-unsafe AUPRC', (s: Scored[]) => f(anyUnsafeAuprc(s).auprc)],
    ['any-unsafe recall at the default policy', (s: Scored[]) => f(anyUnsafeAuprc(s).recallAtPolicy)],
    ...LOCAL_TEXT_CATEGORIES.map(
      (c) =>
        [`${c} recall at the default policy (${recallAtPolicy(embClean, c).positives} positives)`, (s: Scored[]) => f(recallAtPolicy(s, c).recall)] as const,
    ),
  ] as const;
  return [
    '## Surface noise',
    '',
    `${noisy.length} test rows (a quarter, by hash), scored clean and with one to three pieces of noise the`,
    'training never saw (hashtags, mentions, links, emoji, filler: `EVALUATION_NOISE` in',
    o.noisyCopies > 0
      ? `\`scripts/train-text/embedding-noise.ts\`; the heads trained on ${o.noisyCopies} noisy copies with pieces from another set).`
      : '`scripts/train-text/embedding-noise.ts`; these heads trained on clean rows only).',
    '',
    '| figure | embedding, clean | embedding, noisy | n-gram, clean | n-gram, noisy |',
    '|---|---|---|---|---|',
    ...rows.map(([name, g]) => `| ${name} | ${g(embClean)} | ${g(embNoisy)} | ${g(ngClean)} | ${g(ngNoisy)} |`),
  ].join('\n');
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
