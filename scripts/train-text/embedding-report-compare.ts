/**
 * The model card's definitions section and its before/after section: each evaluation run
 * can write its headline figures as JSON (`eval:text:embedding -- --summary f.json`), and a
 * later run given `--baseline f.json` prints both side by side, flagging every category,
 * language and hard-negative set that lost more than 0.02.
 */
import { createHash } from 'crypto';
import { readFileSync } from 'fs';
import { LOCAL_TEXT_CATEGORIES, LocalTextCategory } from '@cds/providers';
import { CATEGORY_DEFINITIONS, RELABELS } from './corpus/label-definitions';
import { CaseResult } from './embedding-cases';
import { CrossRow } from './embedding-cross';
import { DEFAULT_POLICY_THRESHOLDS } from './embedding-scoring';
import { f3, table } from './eval-report';
import { Scored, categoryMetrics } from './evaluate';

/** A change worse than this is flagged (the "no category loses more than 0.02"). */
export const MAX_LOSS = 0.02;
/** a language × category cell needs this many positives to be compared */
const MIN_CELL_POSITIVES = 20;

export interface RunSummary {
  headsSha256: string;
  date: string;
  anyUnsafe: number;
  categories: Record<string, number>;
  lodo: Record<string, { datasets: number; mean: number }>;
  languages: Record<string, Record<string, { auprc: number; positives: number }>>;
  hardNegativesAtPolicy: Record<string, { n: number; flagged: number }>;
  cases: { pass: number; caught: number; clean: number; total: number };
  /** the 17-language cases that fail (the int-spec's knownFailures, in its order) */
  failures: { lang: string; kind: string; expect: string; text: string }[];
}

export function summarizeRun(o: {
  headsPath: string;
  emb: Scored[];
  cross: CrossRow[];
  cases: CaseResult[];
  languages: readonly string[];
  anyUnsafe: { auprc: number };
}): RunSummary {
  const categories: Record<string, number> = {};
  for (const c of LOCAL_TEXT_CATEGORIES) categories[c] = categoryMetrics(o.emb, c)?.auprc ?? NaN;
  const lodo: RunSummary['lodo'] = {};
  for (const c of [...LOCAL_TEXT_CATEGORIES, 'any-unsafe']) {
    const rs = o.cross.filter((r) => r.category === c);
    if (rs.length) lodo[c] = { datasets: rs.length, mean: rs.reduce((a, r) => a + r.withoutDataset, 0) / rs.length };
  }
  const languages: RunSummary['languages'] = {};
  for (const lang of o.languages) {
    const rows = o.emb.filter((s) => s.ex.lang === lang);
    languages[lang] = {};
    for (const c of LOCAL_TEXT_CATEGORIES) {
      const m = categoryMetrics(rows, c);
      if (m && m.positives > 0 && m.positives < m.n) languages[lang][c] = { auprc: m.auprc, positives: m.positives };
    }
  }
  const hardNegativesAtPolicy: RunSummary['hardNegativesAtPolicy'] = {};
  for (const s of o.emb) {
    const hn = s.ex.hardNegative;
    if (!hn) continue;
    const set = hn.set.startsWith('mhc:') ? 'mhc (all)' : hn.set.startsWith('xstest:') ? 'xstest (all)' : hn.set;
    const cats: LocalTextCategory[] = hn.scope === 'hate' ? ['hate'] : hn.scope === 'self-harm' ? ['self-harm'] : [...LOCAL_TEXT_CATEGORIES];
    const r = (hardNegativesAtPolicy[set] ??= { n: 0, flagged: 0 });
    r.n++;
    if (cats.some((c) => s.categories[c] >= DEFAULT_POLICY_THRESHOLDS[c])) r.flagged++;
  }
  const count = (f: (c: CaseResult) => boolean) => o.cases.filter(f).length;
  return {
    headsSha256: createHash('sha256').update(readFileSync(o.headsPath)).digest('hex'),
    date: new Date().toISOString(),
    anyUnsafe: o.anyUnsafe.auprc,
    categories,
    lodo,
    languages,
    hardNegativesAtPolicy,
    cases: {
      pass: count((c) => c.pass),
      caught: count((c) => c.pass && c.expect === 'caught'),
      clean: count((c) => c.pass && c.expect === 'not-caught'),
      total: o.cases.length,
    },
    failures: o.cases.filter((c) => !c.pass).map((c) => ({ lang: c.lang, kind: c.kind, expect: c.expect, text: c.text })),
  };
}

export function definitionsSection(): string {
  return [
    '## What the categories mean',
    '',
    "Aligned with the public definitions of OpenAI's moderation categories and of the MLCommons hazard taxonomy (Llama Guard 3's S1–S14). The dataset loaders map every source's labels to these (scripts/train-text/corpus/label-definitions.ts).",
    '',
    table(
      ['category', 'ours', 'OpenAI moderation', 'MLCommons / Llama Guard 3', 'not this'],
      CATEGORY_DEFINITIONS.map((d) => [d.category, d.ours, d.openai, d.mlcommons, d.notThis]),
    ),
    '',
    'Label changes of 2026-11-29 that follow from them:',
    '',
    ...RELABELS.map((r) => `- ${r}`),
  ].join('\n');
}

const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;

export function beforeAfterSection(before: RunSummary, after: RunSummary, baselineFile: string): string {
  const rows: (string | number)[][] = [];
  const losses: string[] = [];
  const row = (name: string, b: number | undefined, a: number | undefined, flag = true) => {
    if (b === undefined || a === undefined || Number.isNaN(b) || Number.isNaN(a)) return;
    const loss = flag && a < b - MAX_LOSS;
    rows.push([name, f3(b), f3(a), `${signed(a - b)}${loss ? ' **✗**' : ''}`]);
    if (loss) losses.push(name);
  };
  row('any-unsafe AUPRC, test rows', before.anyUnsafe, after.anyUnsafe);
  row('**any-unsafe AUPRC, LODO mean**', before.lodo['any-unsafe']?.mean, after.lodo['any-unsafe']?.mean);
  for (const c of LOCAL_TEXT_CATEGORIES) {
    row(`${c} AUPRC, test rows`, before.categories[c], after.categories[c]);
    row(`${c} AUPRC, LODO mean (${after.lodo[c]?.datasets ?? 0} datasets)`, before.lodo[c]?.mean, after.lodo[c]?.mean);
  }
  rows.push(['17-language set, pass (of 204)', before.cases.pass, after.cases.pass, signed(after.cases.pass - before.cases.pass).replace('.000', '')]);
  const langLosses: string[] = [];
  for (const [lang, cats] of Object.entries(after.languages)) {
    for (const [c, a] of Object.entries(cats)) {
      const b = before.languages[lang]?.[c];
      if (!b || a.positives < MIN_CELL_POSITIVES) continue;
      if (a.auprc < b.auprc - MAX_LOSS) langLosses.push(`${lang} ${c} ${f3(b.auprc)} → ${f3(a.auprc)} (${a.positives} positives)`);
    }
  }
  const hnRows = Object.entries(after.hardNegativesAtPolicy).map(([set, a]) => {
    const b = before.hardNegativesAtPolicy[set];
    const rate = (r: { n: number; flagged: number } | undefined) => (r ? `${((100 * r.flagged) / Math.max(1, r.n)).toFixed(1)}%` : '-');
    return [set, a.n, rate(b), rate(a)];
  });
  return [
    '## Before and after (2026-11-29: definitions, relabelling, new data)',
    '',
    `Before: the heads committed on 2026-11-25 (sha256 \`${before.headsSha256.slice(0, 12)}\`), evaluated by this same command on today's labels (\`${baselineFile}\`, written by \`npm run eval:text:embedding -- --heads <those heads> --exclude xsafety-insult --summary ${baselineFile}\`); their cross-dataset refits are the committed recipe (its λ and label options, without the data added since) on today's labels. After: the heads of this card. Same test rows; ✗ marks a loss of more than ${MAX_LOSS}.`,
    '',
    table(['figure', 'before', 'after', 'change'], rows),
    '',
    `Per language and category (cells with ≥ ${MIN_CELL_POSITIVES} positives) losing more than ${MAX_LOSS}: ${langLosses.length ? langLosses.join('; ') : 'none'}.`,
    '',
    'Hard negatives flagged at the default policy:',
    '',
    table(['set', 'n', 'before', 'after'], hnRows),
    losses.length ? `\nLosses over ${MAX_LOSS}: ${losses.join(', ')}.` : '',
  ].join('\n');
}

/** Puts `section` after the card's "What it is" section (before "What the default thresholds mean"). */
export function insertAfterIntro(md: string, section: string): string {
  if (!section) return md;
  const at = md.indexOf('## What the default thresholds mean');
  return at < 0 ? `${md}\n\n${section}` : `${md.slice(0, at)}${section}\n\n${md.slice(at)}`;
}
