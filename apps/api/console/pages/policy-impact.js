import { h } from '../dom.js';
import { ACTIONS, actionBadge, formatTime, notice, section, table } from '../ui.js';

/** The answer of POST /v1/policies/{id}/impact: how many decisions change, and how. */
export function impactReport(r) {
  const w = r.window ?? {};
  const span = w.oldest ? `from ${formatTime(w.oldest)} to ${formatTime(w.newest)}` : 'no decisions in the window';
  return h(
    'div',
    { class: 'impact' },
    h(
      'p',
      { class: 'impact-summary' },
      h('strong', {}, `${r.changed} of ${r.evaluated}`),
      ` decisions made under ${r.policyId} would change with “${r.candidate?.name ?? 'candidate'}”`,
      ` (${r.unchanged} unchanged; ${span}; replayed in ${r.replayMs} ms).`,
    ),
    w.cut ? notice(`Only the newest ${w.limit} decisions were replayed.`) : null,
    section(
      'Changes',
      table(
        [
          { label: 'From', cell: (c) => actionBadge(c.from) },
          { label: 'To', cell: (c) => actionBadge(c.to) },
          { label: 'Decisions', class: 'num', cell: (c) => c.count },
          { label: 'Driven by', cell: (c) => c.categories.map((k) => `${k.category} (${k.count})`).join(', ') || '—' },
          {
            label: 'Examples',
            cell: (c) =>
              c.sampleDecisionIds.map((id, i) => [i > 0 ? ' ' : null, h('a', { href: `#/decisions/${encodeURIComponent(id)}`, title: id }, id.slice(0, 8))]),
          },
        ],
        r.changes ?? [],
        { empty: 'No decision would change.' },
      ),
    ),
    section(
      'Actions before and after',
      table(
        [
          { label: 'Action', cell: (a) => actionBadge(a) },
          { label: 'Now', class: 'num', cell: (a) => r.actions.before[a] },
          { label: 'With the candidate', class: 'num', cell: (a) => r.actions.after[a] },
          { label: 'Difference', class: 'num', cell: (a) => signed(r.actions.after[a] - r.actions.before[a]) },
        ],
        ACTIONS,
      ),
    ),
  );
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));
