// Small pieces every page uses: badges, tables, error boxes, formatting.
import { h } from './dom.js';

export const ACTIONS = ['allow', 'warn', 'flag', 'block'];

export function actionBadge(action) {
  const known = ACTIONS.includes(action) ? action : 'unknown';
  return h('span', { class: `badge badge-${known}` }, action ?? '—');
}

export function yesNo(value) {
  return h('span', { class: value ? 'yes' : 'no' }, value ? 'yes' : 'no');
}

/** A table: columns [{label, cell: (row) => node|string, class?}], one row per item. */
export function table(columns, rows, { empty = 'Nothing to show.', caption } = {}) {
  return h(
    'table',
    { class: 'data' },
    caption ? h('caption', {}, caption) : null,
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map((c) => h('th', { scope: 'col', class: c.class }, c.label)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.length === 0
        ? h('tr', {}, h('td', { colspan: columns.length, class: 'empty' }, empty))
        : rows.map((row) =>
            h(
              'tr',
              {},
              columns.map((c) => h('td', { class: c.class }, c.cell(row))),
            ),
          ),
    ),
  );
}

/** Term / description pairs; entries with an undefined value are left out. */
export function facts(pairs) {
  return h(
    'dl',
    { class: 'facts' },
    pairs.filter(([, v]) => v !== undefined).map(([k, v]) => [h('dt', {}, k), h('dd', {}, v ?? '—')]),
  );
}

export function errorBox(err) {
  const title = err?.message || 'Something went wrong';
  const details = [err?.code, err?.details].filter(Boolean).join(': ');
  return h('div', { class: 'error', role: 'alert' }, h('strong', {}, title), details ? h('div', { class: 'muted' }, details) : null);
}

export function notice(text) {
  return h('p', { class: 'notice' }, text);
}

export function loading() {
  return h('p', { class: 'muted loading' }, 'Loading…');
}

export function section(title, ...children) {
  return h('section', { class: 'panel' }, h('h2', {}, title), ...children);
}

export function formatTime(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export const score = (n) => (typeof n === 'number' ? n.toFixed(3) : '—');
export const percent = (n) => (typeof n === 'number' ? `${(n * 100).toFixed(1)}%` : '—');

/** A table column: the categories that triggered in a decision or one of its parts. */
export const triggeredColumn = {
  label: 'Triggered',
  cell: (d) =>
    (d.categories ?? [])
      .filter((c) => c.triggered)
      .map((c) => c.category)
      .join(', ') || '—',
};

/** The first `max` characters of a text, on one line. */
export function excerpt(text, max = 120) {
  const line = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Run an async action from a button: disabled while it runs, errors shown in `out`. */
export function busy(button, out, action) {
  return async () => {
    button.disabled = true;
    try {
      await action();
    } catch (err) {
      out.replaceChildren(errorBox(err));
    } finally {
      button.disabled = false;
    }
  };
}
