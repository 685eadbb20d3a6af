import { get } from '../api.js';
import { fill, go, h } from '../dom.js';
import { ACTIONS, actionBadge, errorBox, excerpt, formatTime, loading, table, triggeredColumn } from '../ui.js';
import { cursorOf, FIRST, nextCursor, pageWindow, rememberCursor } from './decision-cursors.js';

const FILTERS = ['action', 'policyId', 'category', 'from', 'to', 'q'];
const PAGE_SIZES = [25, 50, 100, 200];

/** The list as last shown (filters, page), for the detail page's way back. */
let lastList = '#/decisions';
export const listHash = () => lastList;

/** GET /v1/decisions, one page at a time (limit + 1 asked, to know whether a next page
 * exists), filtered on the server and paged by keyset (see decision-cursors.js). The
 * filters and the page's cursor live in the address: back and forth work. */
export async function decisionsPage(main, { query }) {
  lastList = location.hash || '#/decisions';
  const filter = Object.fromEntries(FILTERS.map((k) => [k, query.get(k) ?? '']));
  const limit = PAGE_SIZES.includes(Number(query.get('limit'))) ? Number(query.get('limit')) : 50;
  const cursor = cursorOf(query);
  const previous = rememberCursor(routeQuery(filter, limit, FIRST), cursor);
  const results = h('div', { class: 'results' }, loading());
  main.append(h('h1', {}, 'Decisions'), filterForm(filter, limit), results);
  void suggestions(main);

  const { to, offset } = pageWindow(cursor, filter.to);
  const params = new URLSearchParams({ limit: String(limit + 1), offset: String(offset) });
  for (const k of FILTERS) if (filter[k]) params.set(k, filter[k]);
  if (to) params.set('to', to);
  let decisions;
  try {
    ({ decisions } = await get(`/v1/decisions?${params}`));
  } catch (err) {
    fill(results, errorBox(err));
    return;
  }
  const rows = decisions.slice(0, limit);
  const next = decisions.length > limit ? nextCursor(cursor, rows) : null;
  fill(results, decisionTable(rows), pager(filter, limit, { cursor, previous, next, shown: rows.length }));
}

function decisionTable(rows) {
  return table(
    [
      { label: 'Time', class: 'nowrap', cell: (d) => h('a', { href: `#/decisions/${encodeURIComponent(d.decisionId)}` }, formatTime(d.timestamp)) },
      { label: 'Action', cell: (d) => actionBadge(d.action) },
      { label: 'Policy', cell: (d) => d.policyId },
      { label: 'Type', cell: (d) => d.contentType },
      {
        label: 'Content',
        class: 'content-cell',
        cell: (d) => h('a', { href: `#/decisions/${encodeURIComponent(d.decisionId)}`, class: 'plain' }, contentExcerpt(d)),
      },
      triggeredColumn,
    ],
    rows,
    { empty: 'No decisions match these filters.' },
  );
}

/** Text as it is; an inline image by a short form of its reference. */
function contentExcerpt(d) {
  const ref = /^media:sha256:([0-9a-f]{12})/.exec(d.content ?? '');
  return ref ? `[${d.contentType}] sha256:${ref[1]}…` : excerpt(d.content);
}

function pager(filter, limit, { cursor, previous, next, shown }) {
  const to = (c) => `#/decisions?${routeQuery(filter, limit, c)}`;
  const first = (cursor.page - 1) * limit;
  const range = shown === 0 ? 'No rows' : `Rows ${first + 1}–${first + shown}`;
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    h('button', { type: 'button', class: 'secondary', disabled: cursor.page === 1, on: { click: () => go(to(previous)) } }, '← Prev'),
    h('span', { class: 'muted' }, range),
    h('button', { type: 'button', class: 'secondary', disabled: !next, on: { click: () => go(to(next)) } }, 'Next →'),
  );
}

function routeQuery(filter, limit, cursor) {
  const q = new URLSearchParams();
  for (const k of FILTERS) if (filter[k]) q.set(k, filter[k]);
  if (limit !== 50) q.set('limit', String(limit));
  if (cursor.page > 1) {
    q.set('page', String(cursor.page));
    q.set('upTo', cursor.upTo);
    if (cursor.skip > 0) q.set('skip', String(cursor.skip));
  }
  return q.toString();
}

function filterForm(filter, limit) {
  const field = (label, input) => h('div', { class: 'field' }, h('label', { for: input.id }, label), input);
  const text = (id, value, props = {}) => h('input', { id: `f-${id}`, name: id, value, ...props });
  const inputs = {
    action: h(
      'select',
      { id: 'f-action', name: 'action' },
      h('option', { value: '' }, 'Any'),
      ACTIONS.map((a) => h('option', { value: a, selected: a === filter.action }, a)),
    ),
    policyId: text('policyId', filter.policyId, { list: 'policy-ids', placeholder: 'any' }),
    category: text('category', filter.category, { list: 'category-names', placeholder: 'any' }),
    from: text('from', toLocalInput(filter.from), { type: 'datetime-local', step: '1' }),
    to: text('to', toLocalInput(filter.to), { type: 'datetime-local', step: '1' }),
    q: text('q', filter.q, { type: 'search', placeholder: 'words in the content' }),
    limit: h(
      'select',
      { id: 'f-limit', name: 'limit' },
      PAGE_SIZES.map((n) => h('option', { value: n, selected: n === limit }, n)),
    ),
  };
  const submit = (e) => {
    e.preventDefault();
    const next = { ...filter };
    for (const k of ['action', 'policyId', 'category', 'q']) next[k] = inputs[k].value.trim();
    next.from = fromLocalInput(inputs.from.value);
    next.to = fromLocalInput(inputs.to.value);
    go(`#/decisions?${routeQuery(next, Number(inputs.limit.value), FIRST)}`);
  };
  return h(
    'form',
    { class: 'filters', role: 'search', on: { submit } },
    field('Action', inputs.action),
    field('Policy', inputs.policyId),
    field('Triggered category', inputs.category),
    field('From (local time)', inputs.from),
    field('To (local time)', inputs.to),
    field('Search', inputs.q),
    field('Per page', inputs.limit),
    h(
      'div',
      { class: 'field actions' },
      h('button', { type: 'submit' }, 'Apply'),
      h('button', { type: 'button', class: 'secondary', on: { click: () => go('#/decisions') } }, 'Reset'),
    ),
    h('datalist', { id: 'policy-ids' }),
    h('datalist', { id: 'category-names' }),
  );
}

/** Policy ids and category names to pick from; the filters work without them. */
async function suggestions(main) {
  let policies;
  try {
    ({ policies } = await get('/v1/policies'));
  } catch {
    return;
  }
  const categories = [...new Set(policies.flatMap((p) => Object.keys(p.categories ?? {})))].sort();
  const ids = main.querySelector('#policy-ids');
  const names = main.querySelector('#category-names');
  ids?.replaceChildren(...policies.map((p) => h('option', { value: p.policyId })));
  names?.replaceChildren(...categories.map((c) => h('option', { value: c })));
}

/** ISO 8601 (UTC) to a datetime-local value in the browser's zone, and back. */
function toLocalInput(iso) {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return '';
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function fromLocalInput(value) {
  const d = value ? new Date(value) : null;
  return d && !Number.isNaN(d.getTime()) ? d.toISOString() : '';
}
