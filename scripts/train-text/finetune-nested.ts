/**
 * Exports one signal's labelled training rows of fold F's training side (the other groups'
 * training rows: embedding, training label and weight, whether the label is strong,
 * dataset, language) for finetune/nested_reweight.py, which chooses a training-row
 * weighting (embedding-reweight.ts) by leaving each training-side dataset out in turn, so
 * that fold F itself is never read. Fold F's datasets are not exported.
 *
 *   node -r ./scripts/train-text/register.js scripts/train-text/finetune-nested.ts --fold A --signal hate
 *        --cache <embedding cache dir> --out <prefix>     (writes <prefix>.f32 and <prefix>.json)
 *
 * (The fits run in numpy: on this shared machine the grid × inner folds of L-BFGS fits take
 * hours in the TypeScript fitter and minutes with BLAS; the objective is embedding-logreg.ts's.)
 */
import { writeFileSync } from 'fs';
import { resolve } from 'path';
import { dataDirFrom, parseArgs } from './cli-options';
import { REPORTED_WEIGHT, loadCorpus } from './corpus/corpus';
import { Signal } from './corpus/example';
import { EMBEDDING_DIM, EmbeddingCache } from './embedding-cache';
import { DEFAULT_LABEL_OPTIONS, selectRows, trainingLabel } from './embedding-data';
import { rowEmbeddings } from './embedding-features';
import { seedExamples } from './embedding-seeds';
import { definitionSeedExamples } from './embedding-seeds-v2';
import { DEFAULT_SEED_WEIGHT } from './embedding-train';
import { foldAndManifest } from './finetune-crossval';

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const log = (m: string) => process.stdout.write(`${m}\n`);
  const { held, manifest } = foldAndManifest(args);
  if (!args.cache || !args.out) throw new Error('--cache <embedding cache dir> and --out <prefix> are required');
  const signal = (args.signal ?? 'hate') as Signal;
  const lambda = manifest.heads[signal]?.lambda;
  if (lambda === undefined) throw new Error(`no shipped head for ${signal}`);

  const corpus = loadCorpus(dataDirFrom(args), () => undefined);
  const examples = [...corpus.examples, ...seedExamples(DEFAULT_SEED_WEIGHT), ...definitionSeedExamples(DEFAULT_SEED_WEIGHT)];
  const idx = selectRows(examples, 'train').filter((i) => !held.has(examples[i].dataset) && trainingLabel(examples[i], signal, DEFAULT_LABEL_OPTIONS));
  const X = rowEmbeddings(examples, idx, new EmbeddingCache(resolve(args.cache))).first;
  const rows = idx.map((i) => {
    const ex = examples[i];
    const l = trainingLabel(ex, signal, DEFAULT_LABEL_OPTIONS)!;
    return { y: l.y, w: l.w, strong: (ex.labels[signal]?.w ?? 0) >= REPORTED_WEIGHT, dataset: ex.dataset, lang: ex.lang };
  });
  writeFileSync(`${args.out}.f32`, Buffer.from(X.buffer, X.byteOffset, X.byteLength));
  const meta = { fold: args.fold, signal, lambda, dim: EMBEDDING_DIM, cache: args.cache, heldOut: [...held].sort(), rows };
  writeFileSync(`${args.out}.json`, JSON.stringify(meta) + '\n');
  log(`fold ${args.fold} training side: ${rows.length} rows labelled ${signal} (λ=${lambda}) -> ${args.out}.f32, .json`);
}

if (require.main === module) main();
