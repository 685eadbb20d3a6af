/**
 * Trains and calibrates the early exits of the embedding text model
 * (libs/providers/src/local-embedding/model/embedding-exit.json) against the full model
 * as it is committed (model/embedding-heads.json on the installed weights), and writes
 * their figures into model/MODEL_CARD.md. Rerun it whenever the full model changes.
 *
 *   npm run models:fetch
 *   nice npm run train:text:exit -- [--data-dir <dir>] [--layers 2,3,4,6 (candidate exit layers)]
 *        [--train-share 0.25] [--embed-only [--splits dev,train]] [--dry-run] [--dev-only (no test split: explore)]
 *        [--curve (with --splits dev,train: per exit layer and margin, what leaves and what changes on dev)]
 *        [--no-test (the test split not embedded: write the exits with the dev split's figures, the card says so)]
 *        [--max-changed 0.0025] [--max-auprc-loss 0.0025] [--max-language-changed 0.005] [--max-language-auprc-loss 0.005]
 *        [--min-language-rows 200 (smaller languages are not held to the per-language limits)]
 *   TEXT_WORKERS=2 embeds with two worker threads (default one)
 *
 * 1. Embeds the rows (a share of the training split, the dev and test splits, every chunk)
 *    once to the deepest candidate layer, pooled at each (disk caches per layer count), and
 *    with the full model (its own cache, as `train:text:embedding` fills it).
 * 2. Per candidate layer and signal, a logistic head learns the full model's calibrated
 *    probability from that layer's pooled output (soft labels; training rows only).
 * 3. On the dev split only: the exit plan (one or two layers) and each exit's margin, the
 *    cheapest whose answers change at most `--max-changed` of the decisions under the
 *    built-in policy and lose at most `--max-auprc-loss` any-unsafe AUPRC, overall and in
 *    every language (stricter than the targets, to leave room for the test split).
 * 4. The test split, untouched until then: the figures of the model card.
 */
import { createHash } from 'crypto';
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { locateE5Model } from '../../libs/providers/src/local-embedding/e5-model-files';
import { parseEmbeddingHeads } from '../../libs/providers/src/local-embedding/embedding-heads';
import { LocalTextClassifier } from '@cds/providers';
import { dataDirFrom, numberArg, parseArgs } from './cli-options';
import { loadCorpus } from './corpus/corpus';
import { EmbeddingCache } from './embedding-cache';
import { selectRows } from './embedding-data';
import { EMBEDDING_MODEL_DIR } from './embedding-train';
import { ensureLayers, exitRows, sampleRows } from './exit-data';
import { exitSection, withExitSection } from './exit-card';
import { fitExitModel } from './exit-model';

export const EXIT_FILE = 'embedding-exit.json';
export const EXIT_MANIFEST_FILE = 'embedding-exit.manifest.json';

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const log = (m: string) => process.stdout.write(`${m}\n`);
  const t0 = Date.now();
  const headsText = readFileSync(join(EMBEDDING_MODEL_DIR, 'embedding-heads.json'), 'utf8');
  const heads = parseEmbeddingHeads(JSON.parse(headsText));
  const model = locateE5Model();
  if (model.weightsSha256 !== heads.model.weightsSha256) throw new Error('the installed weights are not the heads’ (npm run models:fetch)');
  const candidates = (args.layers ?? '2,3,4,6').split(',').map(Number);
  const corpus = loadCorpus(dataDirFrom(args), () => undefined);
  const ngram = LocalTextClassifier.load();
  const split = (s: 'train' | 'dev' | 'test') => selectRows(corpus.examples, s);
  const rows = {
    train: exitRows(corpus.examples, sampleRows(corpus.examples, split('train'), numberArg(args, 'train-share', 0.25)), ngram),
    dev: exitRows(corpus.examples, split('dev'), ngram),
    test: exitRows(corpus.examples, split('test'), ngram),
  };
  log(
    `rows: train ${rows.train.idx.length} (sampled), dev ${rows.dev.idx.length}, test ${rows.test.idx.length}; candidate exit layers ${candidates.join(', ')}`,
  );

  // layers 1-8 are the published weights whatever overlay the heads pin (it replaces later layers)
  const layerCaches = new Map(candidates.map((l) => [l, EmbeddingCache.forWeights(model.weightsSha256, l)]));
  const ov = heads.model.overlay;
  const finalCache = EmbeddingCache.forWeights(model.weightsSha256, heads.model.layers, ov && { path: join(EMBEDDING_MODEL_DIR, ov.file), sha256: ov.sha256 });
  for (const name of (args.splits ?? (args['no-test'] === 'true' ? 'dev,train' : 'dev,test,train')).split(',') as ('dev' | 'test' | 'train')[]) {
    log(`${name}: layers ${candidates.join(', ')} and the full model`);
    await ensureLayers(rows[name].chunks.flat(), candidates, layerCaches, { cache: finalCache, layers: heads.model.layers }, log);
  }
  if (args['embed-only'] === 'true') return;

  const headsId = `multilingual-e5-small-q4+heads:${createHash('sha256').update(headsText).digest('hex').slice(0, 12)}`;
  const result = fitExitModel({ heads, headsId, weightsSha256: model.weightsSha256, rows, candidates, layerCaches, finalCache, args, log });
  if (args['dry-run'] === 'true' || args['dev-only'] === 'true' || args.curve === 'true') return;
  const json = JSON.stringify(result.file) + '\n';
  writeFileSync(join(EMBEDDING_MODEL_DIR, EXIT_FILE), json);
  const seconds = Math.round((Date.now() - t0) / 1000);
  const manifest = {
    model: 'local-embedding early exits',
    command: 'npm run train:text:exit',
    trainedAt: new Date().toISOString(),
    seconds,
    calibratedFor: result.file.calibratedFor,
    candidates,
    trainShare: numberArg(args, 'train-share', 0.25),
    rows: { train: rows.train.idx.length, dev: rows.dev.idx.length, test: rows.test.idx.length },
    plan: result.plan.exits,
    dev: result.dev,
    test: result.test,
    files: { [EXIT_FILE]: { bytes: Buffer.byteLength(json), sha256: createHash('sha256').update(json).digest('hex') } },
  };
  writeFileSync(join(EMBEDDING_MODEL_DIR, EXIT_MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  const cardPath = join(EMBEDDING_MODEL_DIR, 'MODEL_CARD.md');
  const section = exitSection({
    plan: result.plan,
    dev: result.dev,
    test: result.test,
    headsId,
    trainChunks: result.trainChunks,
    candidates,
    minLanguageRows: numberArg(args, 'min-language-rows', 200),
    date: new Date().toISOString().slice(0, 10),
  });
  writeFileSync(cardPath, withExitSection(readFileSync(cardPath, 'utf8'), section));
  log(`wrote ${EXIT_FILE}, ${EXIT_MANIFEST_FILE} and the card's early-exit section in ${seconds} s`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
