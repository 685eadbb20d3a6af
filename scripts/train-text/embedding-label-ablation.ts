/**
 * Which label change since an earlier training moves a language × category cell: for each
 * variant (today's loaders and data with one change reverted), refits the named heads at
 * the committed λ, swaps them into the committed heads, and scores today's test rows
 * (today's labels, as the card and the before/after rule read them) per language.
 * An experiment (model/EXPERIMENTS.md, "What the relabelling costs"); writes nothing in the model directory.
 *
 *   node -r ./scripts/train-text/register.js scripts/train-text/embedding-label-ablation.ts \
 *        [--before 3d4a47b (the commit whose loaders the reverts take)] [--signals sexual,harassment,insult]
 *        [--categories sexual,harassment (only categories whose heads are all refitted mean anything)]
 *        [--variants current,no-seeds-v2,…] [--split test|dev (the rows scored; default test)] [--out <file.json>]
 *
 * The old loaders are read from git (`git show <before>:…`) into .tmp/label-ablation/.
 * Heads are fitted once per distinct set of training and dev labels. Every row must be in
 * the embedding cache already (train:text:embedding fills it).
 */
import { execFileSync } from 'child_process';
import { createHash } from 'crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { LocalTextCategory, LocalTextClassifier, SUPPORTED_LANGUAGES } from '@cds/providers';
import { EmbeddingHead, EmbeddingHeadsFile } from '../../libs/providers/src/local-embedding/embedding-heads';
import { locateE5Model } from '../../libs/providers/src/local-embedding/e5-model-files';
import { PROJECT_ROOT, dataDirFrom, parseArgs } from './cli-options';
import { LOADERS, loadCorpus } from './corpus/corpus';
import { CorpusExample, DatasetLoader, Signal } from './corpus/example';
import { EmbeddingCache } from './embedding-cache';
import { DEFAULT_LABEL_OPTIONS, LabelOptions, selectRows, trainingLabel } from './embedding-data';
import { chunksOf, rowEmbeddings } from './embedding-features';
import { fitAllHeads } from './embedding-heads-fit';
import { DEFAULT_LAMBDAS } from './embedding-lodo';
import { embeddingScored, ngramScored } from './embedding-scoring';
import { seedExamples } from './embedding-seeds';
import { SEXUAL_HEALTH_SEEDS, definitionSeedExamples } from './embedding-seeds-v2';
import { EMBEDDING_MANIFEST_FILE, EMBEDDING_MODEL_DIR } from './embedding-train';
import { categoryMetrics } from './evaluate';

type Loaders = Record<string, DatasetLoader>;
interface Variant {
  name: string;
  loaders: Loaders;
  drop?: string[];
  seedsV2: boolean;
  sexualHealthSeeds?: boolean;
  labels?: Partial<LabelOptions>;
}

const WORK = join(PROJECT_ROOT, '.tmp', 'label-ablation');

/** a loader file from git at `commit`, or today's with `edits` (exact replacements), importable from WORK */
async function loaderModule(file: string, commit: string | null, edits: [string, string][] = []): Promise<Loaders> {
  let src = commit
    ? execFileSync('git', ['show', `${commit}:scripts/train-text/corpus/${file}`], { cwd: PROJECT_ROOT, encoding: 'utf8' })
    : readFileSync(join(PROJECT_ROOT, 'scripts/train-text/corpus', file), 'utf8');
  for (const [from, to] of edits) {
    if (!src.includes(from)) throw new Error(`${file}: "${from}" not found (the loader changed: update the variant)`);
    src = src.replace(from, to);
  }
  src = src
    .replace(/from '\.\.\/([a-z-]+)'/g, `from '../../scripts/train-text/$1'`)
    .replace(/from '\.\/([a-z.-]+)'/g, `from '../../scripts/train-text/corpus/$1'`);
  const tag = createHash('sha1').update(src).digest('hex').slice(0, 10);
  const path = join(WORK, `${file.replace(/\.ts$/, '')}.${tag}.ts`);
  writeFileSync(path, src);
  const mod = (await import(path)) as Record<string, unknown>;
  return Object.fromEntries(
    Object.values(mod)
      .filter((v): v is DatasetLoader => typeof v === 'object' && v !== null && 'load' in v && 'name' in v)
      .map((l) => [l.name, l]),
  );
}

async function variants(before: string): Promise<Variant[]> {
  const hs = 'hate-suites.loaders.ts';
  const oldHate = await loaderModule(hs, before);
  const oldReq = await loaderModule('requests.loaders.ts', before);
  // the two halves of the (Multilingual) HateCheck harassment relabelling, reverted one at a time
  const noWeakHarassment = await loaderModule(hs, null, [["l.pos('toxicity', 0.5).pos('harassment', 0.5);", "l.pos('toxicity', 0.5);"]]);
  const noTargetedNh = await loaderModule(hs, null, [
    [
      "else if (functionality === 'target_indiv_nh') l.pos(['harassment', 'insult', 'toxicity']);",
      "else if (functionality === 'target_indiv_nh' || functionality === 'target_group_nh') l.pos('toxicity', 0.5);",
    ],
    ["    else if (functionality === 'target_group_nh') l.pos(['harassment', 'toxicity']);\n", ''],
  ]);
  const quarterWeakHarassment = await loaderModule(hs, null, [
    ["l.pos('toxicity', 0.5).pos('harassment', 0.5);", "l.pos('toxicity', 0.5).pos('harassment', 0.25);"],
  ]);
  const pick = (m: Loaders, ...names: string[]) => Object.fromEntries(names.map((n) => [n, m[n]]));
  const hc = ['hatecheck', 'multilingual-hatecheck'];
  return [
    { name: 'current', loaders: {}, seedsV2: true },
    { name: 'hatecheck-harassment-reverted', loaders: pick(oldHate, ...hc), seedsV2: true },
    { name: 'hateful-weak-harassment-reverted', loaders: pick(noWeakHarassment, ...hc), seedsV2: true },
    // not a revert: hateful cases as harassment positives of weight 0.25 instead of 0.5 (screen it with --split dev)
    { name: 'hateful-harassment-0.25', loaders: pick(quarterWeakHarassment, ...hc), seedsV2: true },
    { name: 'targeted-nh-harassment-reverted', loaders: pick(noTargetedNh, ...hc), seedsV2: true },
    { name: 'mhc-harassment-reverted', loaders: pick(oldHate, 'multilingual-hatecheck'), seedsV2: true },
    { name: 'hatecheck-en-harassment-reverted', loaders: pick(oldHate, 'hatecheck'), seedsV2: true },
    { name: 'violence-relabels-reverted', loaders: { ...pick(oldHate, 'xstest'), ...pick(oldReq, 'multijail') }, seedsV2: true },
    { name: 'no-xsafety', loaders: {}, drop: ['xsafety-insult'], seedsV2: true },
    { name: 'no-seeds-v2', loaders: {}, seedsV2: false },
    { name: 'no-sexual-health-seeds', loaders: {}, seedsV2: true, sexualHealthSeeds: false },
    // not a revert: a candidate repair of the harassment relabelling (read it with --split dev first)
    { name: 'harassment-hard-negatives', loaders: {}, seedsV2: true, labels: { harassmentHardNegatives: true } },
    { name: 'all-reverted', loaders: { ...pick(oldHate, ...hc, 'xstest'), ...pick(oldReq, 'multijail') }, drop: ['xsafety-insult'], seedsV2: false },
  ];
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const log = (m: string) => process.stdout.write(`${m}\n`);
  mkdirSync(WORK, { recursive: true });
  const dataDir = dataDirFrom(args);
  const signals = (args.signals ?? 'sexual,harassment,insult').split(',') as Signal[];
  const categories = (args.categories ?? 'sexual,harassment').split(',') as LocalTextCategory[];
  const committed = JSON.parse(readFileSync(join(EMBEDDING_MODEL_DIR, 'embedding-heads.json'), 'utf8')) as EmbeddingHeadsFile;
  const manifest = JSON.parse(readFileSync(join(EMBEDDING_MODEL_DIR, EMBEDDING_MANIFEST_FILE), 'utf8')) as { heads: Record<string, { lambda: number }> };
  const all = await variants(args.before ?? '3d4a47b');
  const chosen = args.variants ? all.filter((v) => args.variants.split(',').includes(v.name)) : all;
  const cache = EmbeddingCache.forWeights(locateE5Model().weightsSha256);
  const health = new Set(Object.values(SEXUAL_HEALTH_SEEDS).flat());
  const today = [...LOADERS];
  const load = (v: Variant): { hash: string; examples: CorpusExample[] } => {
    LOADERS.splice(0, LOADERS.length, ...today.filter((l) => !v.drop?.includes(l.name)).map((l) => v.loaders[l.name] ?? l));
    const corpus = loadCorpus(dataDir, () => undefined);
    LOADERS.splice(0, LOADERS.length, ...today);
    const v2 = v.seedsV2 ? definitionSeedExamples(10).filter((e) => v.sexualHealthSeeds !== false || !health.has(e.text)) : [];
    return { hash: corpus.corpusHash, examples: [...corpus.examples, ...seedExamples(10), ...v2] };
  };

  // today's test rows (dev rows with --split dev) and labels, scored once per heads file
  const test = loadCorpus(dataDir, () => undefined).examples;
  const testIdx = selectRows(test, args.split === 'dev' ? 'dev' : 'test');
  const chunks = rowEmbeddings(test, testIdx, cache).chunks;
  const ngram = ngramScored(LocalTextClassifier.load(), test, testIdx);
  const cells = (heads: EmbeddingHeadsFile['heads']) => {
    const emb = embeddingScored(heads, chunks, ngram);
    const out: Record<string, { auprc: number; positives: number }> = {};
    for (const c of categories)
      for (const lang of ['all', ...SUPPORTED_LANGUAGES]) {
        const m = categoryMetrics(lang === 'all' ? emb : emb.filter((s) => s.ex.lang === lang), c);
        if (m && m.positives > 0 && m.positives < m.n) out[`${lang}/${c}`] = { auprc: m.auprc, positives: m.positives };
      }
    return out;
  };
  const base = cells(committed.heads);
  const results: Record<string, Record<string, { auprc: number; positives: number }>> = { committed: base };
  const fitted = new Map<string, EmbeddingHead>();
  for (const v of chosen) {
    const { hash, examples } = load(v);
    const trainIdx = selectRows(examples, 'train');
    const devIdx = selectRows(examples, 'dev');
    if ([...trainIdx, ...devIdx].some((i) => !cache.has(chunksOf(examples[i])[0]))) throw new Error(`${v.name}: rows not embedded (run train:text:embedding)`);
    log(`${v.name}: corpus ${hash.slice(0, 12)}, ${trainIdx.length} training rows`);
    const train = { examples, idx: trainIdx, X: rowEmbeddings(examples, trainIdx, cache).first };
    const dev = { examples, idx: devIdx, X: rowEmbeddings(examples, devIdx, cache).first };
    const heads = { ...committed.heads };
    const labels = { ...DEFAULT_LABEL_OPTIONS, ...v.labels };
    for (const s of signals) {
      // a head depends only on its rows' training and dev labels: one fit per distinct set
      const h = createHash('sha1');
      for (const i of trainIdx) {
        const l = trainingLabel(examples[i], s, labels);
        if (l) h.update(`t|${examples[i].text}|${l.y}|${l.w}\n`);
      }
      for (const i of devIdx) {
        const l = examples[i].labels[s];
        if (l && l.w > 0) h.update(`d|${examples[i].text}|${l.y}|${l.w}\n`);
      }
      const key = `${s}:${h.digest('hex')}`;
      if (!fitted.has(key)) {
        const f = fitAllHeads({
          train,
          dev,
          labels,
          lambdas: DEFAULT_LAMBDAS,
          only: [s],
          reuse: { [s]: manifest.heads[s].lambda },
          log,
        });
        fitted.set(key, f.heads[s]!);
      }
      heads[s] = fitted.get(key)!;
    }
    const r = (results[v.name] = cells(heads));
    const losing = Object.keys(r).filter((k) => base[k] && r[k].positives >= 20 && r[k].auprc < base[k].auprc - 0.02);
    log(
      `  cells losing > 0.02 against the committed heads (≥ 20 positives): ${losing.map((k) => `${k} ${(r[k].auprc - base[k].auprc).toFixed(3)}`).join(', ') || 'none'}`,
    );
  }
  const keys = Object.keys(base);
  log(`\n| cell (positives) | ${Object.keys(results).join(' | ')} |\n|---${'|---'.repeat(Object.keys(results).length)}|`);
  for (const k of keys)
    log(
      `| ${k} (${base[k].positives}) | ${Object.values(results)
        .map((r) => (r[k] ? r[k].auprc.toFixed(3) : '-'))
        .join(' | ')} |`,
    );
  if (args.out) writeFileSync(args.out, JSON.stringify(results, null, 1) + '\n');
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
