// Keyset paging of the decisions list. The list is newest first (timestamp, then log
// position) and grows at its head. Under a filter, a deep `offset` makes SQLite test every
// row it skips, and Elasticsearch refuses one past 10 000 rows; so, as the SDK's
// iterateDecisionPages, a page after the first starts at a cursor: the decisions at or
// before `upTo` (the oldest timestamp of the page before, sent as `to`), skipping the
// first `skip` of them (those at that very timestamp already shown). Prev goes back
// through a stack of the cursors seen.

/** The first page. */
export const FIRST = Object.freeze({ page: 1, upTo: '', skip: 0 });

const TRAIL = 'cds.console.decisionCursors';

/** The cursor the address names (page, upTo, skip), or the first page. */
export function cursorOf(query) {
  const page = Number(query.get('page'));
  const skip = Number(query.get('skip') ?? '0');
  const upTo = query.get('upTo') ?? '';
  if (!Number.isSafeInteger(page) || page < 2 || !Number.isSafeInteger(skip) || skip < 0 || Number.isNaN(Date.parse(upTo))) return FIRST;
  return { page, upTo, skip };
}

/** The cursor of the page after `rows`, the rows shown at `cursor` (newest first). */
export function nextCursor(cursor, rows) {
  const oldest = rows[rows.length - 1].timestamp;
  // A page all at the timestamp it started at: the next one skips further along it.
  if (cursor.upTo === oldest) return { page: cursor.page + 1, upTo: oldest, skip: cursor.skip + rows.length };
  return { page: cursor.page + 1, upTo: oldest, skip: rows.filter((d) => d.timestamp === oldest).length };
}

/** The list's `to` and `offset` for the page at `cursor`, under the filter's own `to`
 * (a cursor never widens the filter; the other filters stay as they are). */
export function pageWindow(cursor, to) {
  if (cursor.page === 1) return { to, offset: 0 };
  return { to: to && Date.parse(to) < Date.parse(cursor.upTo) ? to : cursor.upTo, offset: cursor.skip };
}

/**
 * Push `cursor` on the stack of the list `list` (its filters and page size) and return the
 * cursor of the page before it. Kept for the tab (sessionStorage, cleared at sign-out) so
 * that a reload keeps Prev; when the page before is not known (a link opened elsewhere),
 * Prev returns to the first page.
 */
export function rememberCursor(list, cursor) {
  let trail = null;
  try {
    trail = JSON.parse(sessionStorage.getItem(TRAIL) ?? 'null');
  } catch {
    /* a trail that does not parse is no trail */
  }
  const known = trail?.list === list && Array.isArray(trail.cursors) ? trail.cursors : [];
  const stack = [...known.filter((c) => c?.page < cursor.page), cursor];
  sessionStorage.setItem(TRAIL, JSON.stringify({ list, cursors: stack }));
  return stack.find((c) => c.page === cursor.page - 1) ?? FIRST;
}
