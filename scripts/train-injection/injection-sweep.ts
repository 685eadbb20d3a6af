/**
 * How the skill-vetting threshold of the prompt-attack heads trades catches for false alarms,
 * measured cross-source: each source left out in turn, both heads fitted and calibrated on
 * the others exactly as train:injection fits the shipped heads, and each left-out row scored
 * max(p_injection, p_jailbreak) as skill vetting scores a prompt. Prints, per threshold, the
 * mean over sources of attacks caught and of benign texts flagged, and the same for the benign
 * sources that address a model (skill, agent and system prompts, the guide's prompts, the
 * written look-alikes), where a skill's prompt lives. Reads only the training data: no corpus
 * set is looked at, so a threshold chosen here is not tuned on a held-out set.
 *
 *   nice npm run sweep:injection -- [--layer 8] [--lambda 0.0001] [--thresholds 0.5,0.7,0.9]
 */
import { parseArgs } from '../train-text/cli-options';
import { LayerCache } from './injection-cache';
import { locateE5Model } from '../../libs/providers/src/local-embedding/e5-model-files';
import { CANDIDATE_LAYERS, DEFAULT_MIRROR, DEFAULT_SHARED, dataOptions, trainingRows } from './injection-data';
import { fitCalibrated, HeadName, logit, matrix } from './injection-fit';
import { InjectionRow } from './injection-sources';

/** Benign sources of instructions addressed to a model: the domain of a skill's prompt. */
export const ADDRESSED_TO_A_MODEL = new Set([
  'skills',
  'awesome',
  'copilot',
  'fabric',
  'cursorrules',
  'peguide',
  'hardneg',
  'written',
  'promptszh',
  'lobeagents',
]);

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Out-of-fold score of every row (its source left out), as skill vetting computes it. */
export function crossSourceScores(rows: InjectionRow[], X: Float32Array, lambda: number, log: (m: string) => void): Float64Array {
  const out = new Float64Array(rows.length);
  for (const source of new Set(rows.map((r) => r.source))) {
    const train = rows.map((_, i) => i).filter((i) => rows[i].source !== source);
    const test = rows.map((_, i) => i).filter((i) => rows[i].source === source);
    const heads = (['prompt_injection', 'jailbreak'] as HeadName[]).map((n) => fitCalibrated(rows, X, train, n, lambda));
    for (const i of test) out[i] = Math.max(...heads.map((c) => sigmoid(c.platt.a * logit(c.head, X, i) + c.platt.b)));
    log(`  ${source} left out: ${test.length} rows scored`);
  }
  return out;
}

interface Point {
  threshold: number;
  recall: number;
  fpr: number;
  domainFpr: number;
  perSource: Map<string, { attacks: number; caught: number; benign: number; flagged: number }>;
}

export function sweep(rows: InjectionRow[], scores: Float64Array, thresholds: number[]): Point[] {
  return thresholds.map((threshold) => {
    const perSource = new Map<string, { attacks: number; caught: number; benign: number; flagged: number }>();
    rows.forEach((r, i) => {
      const s = perSource.get(r.source) ?? { attacks: 0, caught: 0, benign: 0, flagged: 0 };
      const hit = scores[i] >= threshold;
      if (r.label === 'benign') (s.benign++, hit && s.flagged++);
      else (s.attacks++, hit && s.caught++);
      perSource.set(r.source, s);
    });
    const all = [...perSource.values()];
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
    const recall = mean(all.filter((s) => s.attacks).map((s) => s.caught / s.attacks));
    const fpr = mean(all.filter((s) => s.benign).map((s) => s.flagged / s.benign));
    const domainFpr = mean([...perSource].filter(([k, s]) => ADDRESSED_TO_A_MODEL.has(k) && s.benign).map(([, s]) => s.flagged / s.benign));
    return { threshold, recall, fpr, domainFpr, perSource };
  });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const log = (m: string) => process.stdout.write(`${m}\n`);
  const layer = Number(args.layer ?? 8);
  const lambda = Number(args.lambda ?? 0.0001);
  const thresholds = (args.thresholds ?? '0.5,0.6,0.7,0.8,0.85,0.9,0.93,0.95,0.97,0.98,0.99').split(',').map(Number);
  const rows = await trainingRows(args['mirror-dir'] ?? DEFAULT_MIRROR, args['shared-dir'] ?? DEFAULT_SHARED, dataOptions(args));
  const cache = new LayerCache(locateE5Model().weightsSha256, CANDIDATE_LAYERS);
  const X = matrix(rows, cache, layer);
  log(`${rows.length} rows, layer ${layer}, λ ${lambda}: fitting and calibrating both heads with each source left out`);
  const points = sweep(rows, crossSourceScores(rows, X, lambda, log), thresholds);
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  log('\n| threshold | attacks caught (mean over sources) | benign flagged (mean over sources) | addressed to a model, flagged |');
  log('|---|---|---|---|');
  for (const p of points) log(`| ${p.threshold} | ${pct(p.recall)} | ${pct(p.fpr)} | ${pct(p.domainFpr)} |`);
  for (const p of points) {
    log(`\nthreshold ${p.threshold}:`);
    for (const [k, s] of p.perSource) log(`  ${k}: ${s.caught}/${s.attacks} caught, ${s.flagged}/${s.benign} flagged`);
  }
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
