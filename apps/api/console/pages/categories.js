import { scoreBar } from '../chart.js';
import { h } from '../dom.js';
import { actionBadge, score, table, yesNo } from '../ui.js';

/** Category results beside the policy's rules today: threshold and action. `policy` may
 * be null (not readable); then only the thresholds recorded with the decision show. */
export function categoriesTable(categories, policy) {
  const rule = (c) => policy?.categories?.[c.category];
  return table(
    [
      { label: 'Category', cell: (c) => c.category },
      { label: 'Score', class: 'num', cell: (c) => h('span', { class: 'score' }, scoreBar(c.score, c.threshold), ' ', score(c.score)) },
      { label: 'Threshold', class: 'num', cell: (c) => score(c.threshold) },
      { label: 'Triggered', cell: (c) => yesNo(c.triggered) },
      ...(policy
        ? [
            { label: `Policy threshold (v${policy.version})`, class: 'num', cell: (c) => (rule(c) ? score(rule(c).threshold) : 'no rule') },
            { label: 'Rule action', cell: (c) => (rule(c) ? actionBadge(rule(c).action) : '—') },
          ]
        : []),
    ],
    categories ?? [],
    { empty: 'No categories scored.' },
  );
}
