/**
 * Leave-group-out figures for the encoder fine-tuning (scripts/train-text/finetune/): a
 * fine-tune that saw a dataset cannot be tested on it, and one fine-tune per dataset costs
 * too much on 2 cores, so the datasets are cut into the four groups of
 * finetune/folds.json. For one group, given the embeddings of an encoder tuned without it
 * (or the published one), this fits the five categories' primary heads on the other
 * groups' training rows (λ as the shipped heads chose them, Platt on the other groups' dev
 * rows) and measures, per held-out dataset, each category's AUPRC and any-unsafe's (the max
 * of the calibrated category scores, as embedding-cross.ts) on its test rows.
 *
 *   node -r ./scripts/train-text/register.js scripts/train-text/finetune-crossval.ts --fold <name>
 *        --cache <embedding cache dir> [--lambdas-from <heads manifest>] [--out result.json]
 *   … --by-lang   (also a row per held-out dataset and language with both classes)
 *   … --reweight hate=lang:0.5   (one head's training rows reweighted: embedding-reweight.ts;
 *        choose it with finetune-nested.ts, never on the fold)
 *   … --fold <name> --texts-out texts.jsonl   (only writes every chunk the fold reads, {"text"} a line:
 *        the --rows of cache_states.py and embed_states.py; rows.jsonl alone lacks the later
 *        chunks of long training rows)
 *
 * The cache holds every needed text (finetune/embed_states.py writes one for a tuned
 * overlay; the published model's is .tmp/embedding-cache/e5q4-query-<weights>).
 */
import { readFileSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';
import { sigmoid } from '../../libs/providers/src/local-embedding/embedding-heads';
import { LOCAL_TEXT_CATEGORIES, LocalTextCategory } from '@cds/providers';
import { PROJECT_ROOT, dataDirFrom, parseArgs } from './cli-options';
import { loadCorpus } from './corpus/corpus';
import { EmbeddingCache } from './embedding-cache';
import { anyUnsafeLabel, maxChunkLogit } from './embedding-cross';
import { DEFAULT_LABEL_OPTIONS, selectRows } from './embedding-data';
import { chunksOf, rowEmbeddings } from './embedding-features';
import { calibrate } from './embedding-heads-fit';
import { headData } from './embedding-lodo';
import { DEFAULT_FIT, LinearHead, fitHead } from './embedding-logreg';
import { parseReweighting, reweightHeadData } from './embedding-reweight';
import { seedExamples } from './embedding-seeds';
import { definitionSeedExamples } from './embedding-seeds-v2';
import { DEFAULT_SEED_WEIGHT, EMBEDDING_MANIFEST_FILE, EMBEDDING_MODEL_DIR } from './embedding-train';
import { PRIMARY, categoryLabel } from './evaluate';
import { averagePrecision } from './metrics';

export const FOLDS_FILE = resolve(PROJECT_ROOT, 'scripts/train-text/finetune/folds.json');

/** The datasets `--fold` holds out (folds.json), and the manifest whose heads' λ the refits
 * take (`--lambdas-from`, default the shipped one): shared with finetune-nested.ts. */
export function foldAndManifest(args: Record<string, string>): { held: Set<string>; manifest: { heads: Record<string, { lambda: number }> } } {
  const folds = JSON.parse(readFileSync(FOLDS_FILE, 'utf8')) as Record<string, string[]>;
  const held = new Set(folds[args.fold] ?? []);
  if (held.size === 0) throw new Error(`--fold must be one of ${Object.keys(folds).join(', ')}`);
  const manifest = JSON.parse(readFileSync(args['lambdas-from'] ?? join(EMBEDDING_MODEL_DIR, EMBEDDING_MANIFEST_FILE), 'utf8')) as {
    heads: Record<string, { lambda: number }>;
  };
  return { held, manifest };
}

export interface CrossvalRow {
  dataset: string;
  /** set on the rows of --by-lang: the dataset's test rows in that language only */
  lang?: string;
  category: LocalTextCategory | 'any-unsafe';
  n: number;
  positives: number;
  auprc: number;
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const log = (m: string) => process.stdout.write(`${m}\n`);
  const { held, manifest } = foldAndManifest(args);
  if (!args.cache && !args['texts-out']) throw new Error('--cache <embedding cache dir> is required');
  const reweight = args.reweight ? parseReweighting(args.reweight) : undefined;
  const corpus = loadCorpus(dataDirFrom(args), () => undefined);
  const examples = [...corpus.examples, ...seedExamples(DEFAULT_SEED_WEIGHT), ...definitionSeedExamples(DEFAULT_SEED_WEIGHT)];
  const trainIdx = selectRows(examples, 'train').filter((i) => !held.has(examples[i].dataset));
  const devIdx = selectRows(examples, 'dev').filter((i) => !held.has(examples[i].dataset));
  const testIdx = selectRows(corpus.examples, 'test').filter((i) => held.has(corpus.examples[i].dataset));
  if (args['texts-out']) {
    const texts = new Set([...trainIdx, ...devIdx].flatMap((i) => chunksOf(examples[i])));
    for (const i of testIdx) for (const t of chunksOf(corpus.examples[i])) texts.add(t);
    writeFileSync(args['texts-out'], [...texts].map((text) => JSON.stringify({ text }) + '\n').join(''));
    log(`fold ${args.fold}: ${texts.size} texts -> ${args['texts-out']}`);
    return;
  }
  const cache = new EmbeddingCache(resolve(args.cache));
  log(
    `fold ${args.fold} (${[...held].join(', ')}): ${trainIdx.length} training, ${devIdx.length} dev, ${testIdx.length} test rows; cache ${args.cache}` +
      (reweight ? `; ${reweight.signal} reweighted by ${reweight.group}, α=${reweight.alpha}` : ''),
  );
  const train = { examples, idx: trainIdx, X: rowEmbeddings(examples, trainIdx, cache).first };
  const dev = { examples, idx: devIdx, X: rowEmbeddings(examples, devIdx, cache).first };
  const test = rowEmbeddings(corpus.examples, testIdx, cache).chunks;

  const heads: Partial<Record<LocalTextCategory, { head: LinearHead; platt: { a: number; b: number } }>> = {};
  for (const c of LOCAL_TEXT_CATEGORIES) {
    const s = PRIMARY[c];
    const lambda = manifest.heads[s]?.lambda;
    if (lambda === undefined) continue;
    const data = headData(train, s, DEFAULT_LABEL_OPTIONS);
    const head = fitHead(reweight?.signal === s ? reweightHeadData(data, examples, trainIdx, reweight) : data, { ...DEFAULT_FIT, lambda });
    heads[c] = { head, platt: calibrate(head, dev, s) };
  }
  const rows: CrossvalRow[] = [];
  const scored = testIdx.map((i, r) => ({ ex: corpus.examples[i], chunks: test[r] }));
  const groups: { dataset: string; lang?: string }[] = [];
  for (const d of [...held].sort()) {
    groups.push({ dataset: d });
    if (args['by-lang'])
      for (const lang of [...new Set(scored.filter((r) => r.ex.dataset === d).map((r) => r.ex.lang))].sort()) groups.push({ dataset: d, lang });
  }
  for (const { dataset: d, lang } of groups) {
    const rs = scored.filter((r) => r.ex.dataset === d && (lang === undefined || r.ex.lang === lang));
    const prob = (c: LocalTextCategory, chunks: Float32Array[]) => sigmoid(heads[c]!.platt.a * maxChunkLogit(heads[c]!.head, chunks) + heads[c]!.platt.b);
    const add = (category: CrossvalRow['category'], label: (r: (typeof rs)[number]) => 0 | 1 | undefined, score: (r: (typeof rs)[number]) => number) => {
      const keep = rs.filter((r) => label(r) !== undefined);
      const y = keep.map((r) => label(r)!);
      const positives = y.filter(Boolean).length;
      if (positives === 0 || positives === y.length) return;
      rows.push({ dataset: d, ...(lang === undefined ? {} : { lang }), category, n: y.length, positives, auprc: averagePrecision(keep.map(score), y) });
    };
    const present = LOCAL_TEXT_CATEGORIES.filter((c) => heads[c]);
    for (const c of present)
      add(
        c,
        (r) => categoryLabel(r.ex, c),
        (r) => prob(c, r.chunks),
      );
    add(
      'any-unsafe',
      (r) => anyUnsafeLabel(r.ex),
      (r) => Math.max(...present.map((c) => prob(c, r.chunks))),
    );
  }
  for (const r of rows) log(`  ${r.dataset}${r.lang ? `/${r.lang}` : ''} ${r.category}: ${r.auprc.toFixed(3)} (${r.positives}/${r.n})`);
  if (args.out) writeFileSync(args.out, JSON.stringify({ fold: args.fold, cache: args.cache, ...(reweight ? { reweight } : {}), rows }, null, 1) + '\n');
}

if (require.main === module) main();
