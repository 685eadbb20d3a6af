/**
 * Trains the built-in `local` text model from the labelled datasets and writes it into
 * libs/providers/src/local-text/model/ (model, lexicon, manifest).
 *
 *   npm run train:text -- [--data-dir <dir>] [--out <dir>] [--epochs 4] [--bits 18]
 *                         [--exclude dataset,dataset] [--dry-run]
 *
 * `--exclude` drops datasets by name (e.g. the CC-BY-SA ones: korean-hate-speech,kmhas_ko,
 * apeach_ko,told-br) for deployments whose licence reading requires it.
 *
 * Same data and options -> byte-identical model file (seeded shuffling, single thread).
 */
import { createHash } from 'crypto';
import { mkdirSync, writeFileSync } from 'fs';
import { join, relative } from 'path';
import { DEFAULT_FEATURIZER_CONFIG, FeaturizerConfig, LOCAL_TEXT_MODEL_FILE, LOCAL_TEXT_SIGNAL_FOLDING, encodeLocalTextModel } from '@cds/providers';
import { DEFAULT_MODEL_DIR, MANIFEST_FILE, PROJECT_ROOT, dataDirFrom, numberArg, parseArgs } from './cli-options';
import { loadCorpus } from './corpus/corpus';
import { macroAuprc, scoreExamples, summarize } from './evaluate';
import { FeatureStore } from './feature-store';
import { buildLexicon } from './lexicon-builder';
import { LEXICON_FILE_NAME, buildModel, indicesOf, makeFeaturizer } from './pipeline';
import { DEFAULT_TRAIN_OPTIONS, TrainOptions } from './trainer';

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const dataDir = dataDirFrom(args);
  const outDir = args.out ?? DEFAULT_MODEL_DIR;
  const log = (m: string) => process.stdout.write(`${m}\n`);
  const opts: TrainOptions = {
    ...DEFAULT_TRAIN_OPTIONS,
    bits: numberArg(args, 'bits', DEFAULT_TRAIN_OPTIONS.bits),
    epochs: numberArg(args, 'epochs', DEFAULT_TRAIN_OPTIONS.epochs),
    lr: numberArg(args, 'lr', DEFAULT_TRAIN_OPTIONS.lr),
    l2: numberArg(args, 'l2', DEFAULT_TRAIN_OPTIONS.l2),
    lexiconView: numberArg(args, 'lexicon-view', DEFAULT_TRAIN_OPTIONS.lexiconView),
    datasetCap: numberArg(args, 'dataset-cap', DEFAULT_TRAIN_OPTIONS.datasetCap),
    maxPositiveWeight: numberArg(args, 'max-positive-weight', DEFAULT_TRAIN_OPTIONS.maxPositiveWeight),
    hardNegativeWeight: numberArg(args, 'hard-negative-weight', DEFAULT_TRAIN_OPTIONS.hardNegativeWeight),
  };
  const featurizerConfig: FeaturizerConfig = { ...DEFAULT_FEATURIZER_CONFIG, bits: opts.bits };
  const t0 = Date.now();

  log(`data: ${dataDir}`);
  const lexicon = buildLexicon(dataDir);
  const lexiconJson = JSON.stringify(lexicon, null, 1) + '\n';
  const lexiconSha256 = createHash('sha256').update(lexiconJson).digest('hex');
  log(`lexicon: ${Object.values(lexicon.entries).reduce((a, c) => a + Object.values(c).reduce((b, t) => b + t.length, 0), 0)} terms`);

  log('loading datasets');
  const exclude = args.exclude
    ? args.exclude
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : [];
  const corpus = loadCorpus(dataDir, log, exclude);
  for (const n of corpus.notes) log(`  note: ${n}`);
  const featurizer = makeFeaturizer(featurizerConfig, lexicon);
  const tf = Date.now();
  const store = new FeatureStore(corpus.examples, featurizer);
  log(`featurised ${store.size} examples, ${store.buckets.length} features in ${Date.now() - tf} ms`);

  const trainIdx = indicesOf(corpus.examples, (e) => e.split === 'train');
  const devIdx = indicesOf(corpus.examples, (e) => e.split === 'dev');
  log(`training on ${trainIdx.length}, calibrating on ${devIdx.length} (options ${JSON.stringify(opts)})`);
  const { model, classifier } = buildModel({
    store,
    trainIdx,
    devIdx,
    lexicon,
    lexiconSha256,
    featurizer: featurizerConfig,
    denseNames: featurizer.denseNames(),
    opts,
    log,
  });
  const trainingSeconds = Math.round((Date.now() - t0) / 100) / 10;

  const devScored = scoreExamples(
    classifier,
    devIdx.map((i) => corpus.examples[i]),
  );
  const devSummary = summarize(devScored);
  log(`dev: ${devSummary}`);
  log(`dev macro AUPRC: ${macroAuprc(devScored).toFixed(4)}`);

  const bin = encodeLocalTextModel(model);
  log(`model: ${(bin.length / 1048576).toFixed(2)} MiB, trained in ${trainingSeconds} s`);
  if (args['dry-run'] === 'true') return;

  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, LEXICON_FILE_NAME), lexiconJson);
  writeFileSync(join(outDir, LOCAL_TEXT_MODEL_FILE), bin);
  const manifest = {
    model: 'local-text',
    format: model.header.format,
    trainedAt: new Date().toISOString(),
    trainingSeconds,
    node: process.version,
    command: 'npm run train:text',
    dataDir: relative(PROJECT_ROOT, dataDir),
    data: {
      corpusSha256: corpus.corpusHash,
      sourceTxtSha256: corpus.sourceHashes,
      notes: corpus.notes,
      examples: corpus.examples.length,
      perDataset: Object.fromEntries(corpus.stats.map((s) => [s.name, { kept: s.kept, duplicates: s.duplicates, ...s.splits, langs: s.langs }])),
    },
    options: opts,
    excludedDatasets: exclude,
    featurizer: featurizerConfig,
    signals: model.header.signals,
    folding: LOCAL_TEXT_SIGNAL_FOLDING,
    files: {
      [LOCAL_TEXT_MODEL_FILE]: { bytes: bin.length, sha256: createHash('sha256').update(bin).digest('hex') },
      [LEXICON_FILE_NAME]: { bytes: Buffer.byteLength(lexiconJson), sha256: lexiconSha256 },
    },
    devMetrics: { macroAuprc: Number(macroAuprc(devScored).toFixed(4)), summary: devSummary },
    evaluation: 'see EVAL.md (npm run eval:text), held-out test splits only',
  };
  writeFileSync(join(outDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  log(`wrote ${outDir}`);
}

main();
