import { LOCAL_TEXT_CATEGORIES, LocalTextCategory, SUPPORTED_LANGUAGES } from '@cds/providers';
import { Scored, categoryMetrics, signalMetrics } from './evaluate';
import { SIGNALS } from './corpus/example';
import { BinaryMetrics } from './metrics';

/** Markdown helpers for EVAL.md. */
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '-');

export function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

export function metricsRow(name: string, m: BinaryMetrics | undefined): (string | number)[] {
  if (!m) return [name, 0, 0, '-', '-', '-', '-'];
  return [name, m.n, m.positives, f3(m.precision), f3(m.recall), f3(m.f1), m.positives > 0 ? f3(m.auprc) : '-'];
}

export const METRIC_HEAD = ['', 'n', 'pos', 'P@0.5', 'R@0.5', 'F1@0.5', 'AUPRC'];

export function categoryTable(scored: Scored[]): string {
  return table(
    METRIC_HEAD,
    LOCAL_TEXT_CATEGORIES.map((c) => metricsRow(c, categoryMetrics(scored, c))),
  );
}

export function signalTable(scored: Scored[]): string {
  return table(
    METRIC_HEAD,
    SIGNALS.map((s) => metricsRow(s, signalMetrics(scored, s))),
  );
}

/** One row per language, F1 / AUPRC / positives per category. */
export function languageTable(scored: Scored[]): string {
  const head = ['lang', 'n', ...LOCAL_TEXT_CATEGORIES.map((c) => `${c} F1 / AUPRC (pos)`)];
  const rows = SUPPORTED_LANGUAGES.map((lang) => {
    const sub = scored.filter((s) => s.ex.lang === lang);
    return [lang, sub.length, ...LOCAL_TEXT_CATEGORIES.map((c) => cell(categoryMetrics(sub, c)))];
  });
  return table(head, rows);
}

export function datasetTable(scored: Scored[], datasets: string[]): string {
  const head = ['dataset', 'n', ...LOCAL_TEXT_CATEGORIES.map((c) => `${c} F1 / AUPRC (pos)`)];
  const rows = datasets.map((d) => {
    const sub = scored.filter((s) => s.ex.dataset === d);
    return [d, sub.length, ...LOCAL_TEXT_CATEGORIES.map((c) => cell(categoryMetrics(sub, c)))];
  });
  return table(head, rows);
}

function cell(m: BinaryMetrics | undefined): string {
  if (!m) return '';
  if (m.positives === 0) return `FPR ${pct(m.fpr)} (n=${m.n})`;
  // with no negatives AUPRC is trivially 1: show recall instead
  if (m.positives === m.n) return `R ${f3(m.recall)} (${m.positives}, all positive)`;
  return `${f3(m.f1)} / ${f3(m.auprc)} (${m.positives})`;
}

export interface HardNegativeRow {
  set: string;
  scope: string;
  n: number;
  flagged: number;
  topCategory: string;
}

/** False positives on hard negatives: hate-scoped sets count hate >= 0.5, any-scoped sets any category >= 0.5. */
export function hardNegativeRows(scored: Scored[], coarse: (set: string) => string): HardNegativeRow[] {
  const groups = new Map<string, Scored[]>();
  for (const s of scored) {
    if (!s.ex.hardNegative) continue;
    const key = `${coarse(s.ex.hardNegative.set)}\t${s.ex.hardNegative.scope}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const rows: HardNegativeRow[] = [];
  for (const [key, items] of [...groups].sort()) {
    const [set, scope] = key.split('\t');
    const cats: LocalTextCategory[] = scope === 'hate' ? ['hate'] : scope === 'self-harm' ? ['self-harm'] : [...LOCAL_TEXT_CATEGORIES];
    const byCat = new Map<string, number>();
    let flagged = 0;
    for (const s of items) {
      const hits = cats.filter((c) => s.categories[c] >= 0.5);
      if (hits.length > 0) flagged++;
      for (const c of hits) byCat.set(c, (byCat.get(c) ?? 0) + 1);
    }
    const top = [...byCat].sort((a, b) => b[1] - a[1])[0];
    rows.push({ set, scope, n: items.length, flagged, topCategory: top ? `${top[0]} (${top[1]})` : '' });
  }
  return rows;
}

export function hardNegativeTable(rows: HardNegativeRow[]): string {
  return table(
    ['hard-negative set', 'must stay low on', 'n', 'flagged', 'FPR', 'most flagged as'],
    rows.map((r) => [r.set, r.scope, r.n, r.flagged, pct(r.flagged / Math.max(1, r.n)), r.topCategory]),
  );
}

export { f3, pct };
