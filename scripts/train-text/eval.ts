/**
 * Evaluates the committed `local` text model on held-out test splits and writes
 * libs/providers/src/local-text/model/EVAL.md.
 *
 *   npm run eval:text -- [--data-dir <dir>] [--model-dir <dir>] [--cross a,b,c | --no-cross]
 *
 * Cross-dataset figures retrain the model without dataset X (same options as the
 * shipped model) and test on X's test split, next to the shipped model's score on it.
 */
import { createHash } from 'crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'fs';
import { join } from 'path';
import { DEFAULT_FEATURIZER_CONFIG, LOCAL_TEXT_CATEGORIES, LOCAL_TEXT_MODEL_FILE, LocalTextClassifier, LexiconFile } from '@cds/providers';
import { DEFAULT_MODEL_DIR, MANIFEST_FILE, dataDirFrom, parseArgs } from './cli-options';
import { Corpus, loadCorpus } from './corpus/corpus';
import { categoryTable, datasetTable, f3, hardNegativeRows, hardNegativeTable, languageTable, signalTable, table } from './eval-report';
import { Scored, categoryMetrics, scoreExamples } from './evaluate';
import { FeatureStore } from './feature-store';
import { buildModel, indicesOf, LEXICON_FILE_NAME, makeFeaturizer } from './pipeline';
import { DEFAULT_TRAIN_OPTIONS, TrainOptions } from './trainer';

const DEFAULT_CROSS = ['davidson-hate-offensive', 'germeval2018', 'told-br', 'reddit-cssrs-suicide'];

interface Manifest {
  trainedAt: string;
  trainingSeconds: number;
  options: TrainOptions;
  data: { corpusSha256: string };
  files: Record<string, { bytes: number; sha256: string }>;
}

/** Average per-call time over `count` tweet-sized texts (after a warm-up), in microseconds. */
function latency(classifier: LocalTextClassifier, texts: { text: string; lang: string }[], count: number) {
  for (let i = 0; i < 2000; i++) classifier.score(texts[i % texts.length].text, texts[i % texts.length].lang);
  const times = new Float64Array(count);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const s = process.hrtime.bigint();
    const t = texts[i % texts.length];
    classifier.score(t.text, t.lang);
    times[i] = Number(process.hrtime.bigint() - s) / 1000;
  }
  const total = Number(process.hrtime.bigint() - t0) / 1000;
  times.sort();
  return { meanUs: total / count, p50Us: times[Math.floor(count * 0.5)], p99Us: times[Math.floor(count * 0.99)] };
}

function crossDataset(corpus: Corpus, names: string[], lexicon: LexiconFile, opts: TrainOptions, shipped: Scored[], log: (m: string) => void): string {
  const featurizer = makeFeaturizer({ ...DEFAULT_FEATURIZER_CONFIG, bits: opts.bits }, lexicon);
  const store = new FeatureStore(corpus.examples, featurizer);
  const sections: string[] = [];
  for (const name of names) {
    if (!corpus.examples.some((e) => e.dataset === name)) continue;
    log(`cross-dataset: training without ${name}`);
    const trainIdx = indicesOf(corpus.examples, (e) => e.split === 'train' && e.dataset !== name);
    const devIdx = indicesOf(corpus.examples, (e) => e.split === 'dev' && e.dataset !== name);
    const { classifier } = buildModel({
      store,
      trainIdx,
      devIdx,
      lexicon,
      lexiconSha256: 'cross',
      featurizer: { ...DEFAULT_FEATURIZER_CONFIG, bits: opts.bits },
      denseNames: featurizer.denseNames(),
      opts,
      log,
    });
    const test = corpus.examples.filter((e) => e.dataset === name && e.split === 'test');
    const held = scoreExamples(classifier, test);
    const inDist = shipped.filter((s) => s.ex.dataset === name);
    const rows: (string | number)[][] = [];
    for (const c of LOCAL_TEXT_CATEGORIES) {
      const a = categoryMetrics(inDist, c);
      const b = categoryMetrics(held, c);
      if (!a || !b || a.positives === 0) continue;
      rows.push([c, a.n, a.positives, f3(a.f1), f3(a.auprc), f3(b.f1), f3(b.auprc)]);
    }
    sections.push(
      `**${name}** (${test[0]?.lang ?? ''}, ${test.length} test examples)\n\n` +
        table(['category', 'n', 'pos', 'in-distribution F1', 'in-distribution AUPRC', 'without dataset F1', 'without dataset AUPRC'], rows),
    );
  }
  return sections.join('\n\n');
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const dataDir = dataDirFrom(args);
  const modelDir = args['model-dir'] ?? DEFAULT_MODEL_DIR;
  const log = (m: string) => process.stdout.write(`${m}\n`);
  const manifestPath = join(modelDir, MANIFEST_FILE);
  const manifest = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest) : undefined;
  const opts: TrainOptions = { ...DEFAULT_TRAIN_OPTIONS, ...(manifest?.options ?? {}) };

  const tLoad = process.hrtime.bigint();
  const classifier = LocalTextClassifier.load(modelDir);
  const loadMs = Number(process.hrtime.bigint() - tLoad) / 1e6;
  const corpus = loadCorpus(dataDir, log);
  if (manifest && manifest.data.corpusSha256 !== corpus.corpusHash) {
    log('WARNING: the data differs from what the committed model was trained on (corpus hash mismatch)');
  }
  const test = corpus.examples.filter((e) => e.split === 'test');
  log(`scoring ${test.length} held-out test examples`);
  const scored = scoreExamples(classifier, test);

  const tweets = test.filter((e) => e.text.length <= 280).map((e) => ({ text: e.text, lang: e.lang }));
  const lat = latency(classifier, tweets, 10_000);
  const longText = 'word '.repeat(5000);
  const tLong = process.hrtime.bigint();
  classifier.score(longText, 'en');
  const longMs = Number(process.hrtime.bigint() - tLong) / 1e6;
  log(`latency: mean ${lat.meanUs.toFixed(1)} us, p50 ${lat.p50Us.toFixed(1)} us, p99 ${lat.p99Us.toFixed(1)} us`);

  const coarse = (set: string) => (set.startsWith('mhc:') ? 'multilingual-hatecheck non-hateful (all functionalities)' : set);
  const hn = hardNegativeRows(scored, coarse);
  const crossNames = args['no-cross'] === 'true' ? [] : args.cross && args.cross !== 'true' ? args.cross.split(',') : DEFAULT_CROSS;
  const lexicon = JSON.parse(readFileSync(join(modelDir, LEXICON_FILE_NAME), 'utf8')) as LexiconFile;
  const cross = crossNames.length > 0 ? crossDataset(corpus, crossNames, lexicon, opts, scored, log) : '';

  const modelBytes = statSync(join(modelDir, LOCAL_TEXT_MODEL_FILE)).size;
  const lexBytes = statSync(join(modelDir, LEXICON_FILE_NAME)).size;
  const datasets = corpus.stats.map((s) => s.name);
  const md = [
    '# `local` text model: evaluation',
    '',
    `Generated by \`npm run eval:text\` on ${new Date().toISOString().slice(0, 10)} from the committed model` +
      (manifest
        ? ` (trained ${manifest.trainedAt.slice(0, 10)} in ${manifest.trainingSeconds} s, corpus sha256 \`${manifest.data.corpusSha256.slice(0, 16)}…\`)`
        : '') +
      '.',
    '',
    'All figures are on **held-out test splits** (20% of each dataset, split by a hash of the text, or of the template / ' +
      'translation group / user, before training; the dev split (10%) was used only for calibration). Only labels the ' +
      "mapping calls strong (weight ≥ 0.75) are scored; weak labels are training-only. A category's score is the max of its " +
      'signals (LOCAL_TEXT_SIGNAL_FOLDING); P/R/F1 at the 0.5 threshold. In-distribution splits overstate real-traffic ' +
      'quality: see the cross-dataset section.',
    '',
    `Model: ${(modelBytes / 1048576).toFixed(2)} MiB (${LOCAL_TEXT_MODEL_FILE}) + ${(lexBytes / 1024).toFixed(0)} KiB lexicon; ` +
      `2^${opts.bits} hash buckets × ${classifier.signals.length} signals, int8. Load time ${loadMs.toFixed(0)} ms.`,
    '',
    `Latency (one core, this machine): **${lat.meanUs.toFixed(1)} µs mean** per tweet-sized text (≤ 280 chars), ` +
      `averaged over 10,000 held-out texts; p50 ${lat.p50Us.toFixed(1)} µs, p99 ${lat.p99Us.toFixed(1)} µs. ` +
      `A 25,000-character text (capped at 20,000): ${longMs.toFixed(1)} ms.`,
    '',
    '## Per category (all languages)',
    '',
    categoryTable(scored),
    '',
    '## Per language',
    '',
    'F1@0.5 / AUPRC (positives); "FPR" where there are no positives, "R" (recall) where there are no negatives. es, it, nl, pl, hi rely on ' +
      'templated HateCheck cases plus RTP-LX; ru, id, sv, cs on RTP-LX only; tr on OffensEval (no category labels) and RTP-LX.',
    '',
    languageTable(scored),
    '',
    '## Per dataset',
    '',
    'Same cells as above. Request sets (AILuminate, Do-Not-Answer, SimpleSafetyTests, HarmBench/StrongREJECT, MultiJail) ' +
      'are all unsafe prompts, so only recall is meaningful for their own category.',
    '',
    datasetTable(scored, datasets),
    '',
    '## Signals',
    '',
    signalTable(scored),
    '',
    '## Hard negatives (false-positive rate at 0.5)',
    '',
    'Held-out hard negatives only. HateCheck/MHC non-hateful cases count a false positive when hate ≥ 0.5 (some, like ' +
      '`profanity_nh` or `target_indiv_nh`, are legitimately rude and may score on other signals); XSTest safe prompts, ' +
      'TOXIGEN neutral sentences and MedQuAD pages when any category ≥ 0.5; supportive Reddit replies when self-harm ≥ 0.5.',
    '',
    hardNegativeTable(hn),
    '',
    '## Cross-dataset',
    '',
    cross
      ? "Model retrained without the dataset (same options, same seed), tested on that dataset's test split, next to the " +
        'shipped model on the same split. The gap is how much in-distribution numbers flatter the model on that kind of text.\n\n' +
        cross
      : '_skipped (--no-cross)_',
    '',
    '## Notes',
    '',
    ...corpus.notes.map((n) => `- ${n}`),
    '- Self-harm and sexual positives come mostly from English request sets (AILuminate, Do-Not-Answer, SimpleSafetyTests, ' +
      'StrongREJECT), Reddit C-SSRS and RTP-LX; expect weaker recall on conversational text in other languages.',
    '- Weak spots: HateCheck-style templates dominate es/it/nl/pl/hi hate figures (they are easy once the templates are seen); ' +
      'tr, sv, cs have no category-labelled data besides ~1k RTP-LX prompts each, and lean on the lexicon features.',
    '- Outside English, self-harm mostly comes from the lexicon score path: a first-person intent phrase (seed list, ' +
      "17 languages) lifts self_harm and self_harm_intent to the phrase's training precision (see lexiconFloors in the " +
      'model header). The test splits hold almost no non-English self-harm positives, so that path is not measured here.',
    '- MLMA "normal" tweets are only weak negatives (the set was collected by slur keywords), so MLMA reports hate recall only.',
    '',
  ].join('\n');
  const out = join(modelDir, 'EVAL.md');
  writeFileSync(out, md);
  log(`wrote ${out} (${createHash('sha256').update(md).digest('hex').slice(0, 12)})`);
}

main();
