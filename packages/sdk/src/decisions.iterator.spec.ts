import { iterateDecisionPages } from './decisions.iterator';
import type { DecisionFilter, StoredDecision } from './types/decisions.types';

/** The service's list: newest first by timestamp then position; `to` inclusive. */
function store(initial: { id: string; ts: string }[]) {
  let pos = 0;
  const rows = initial.map((r) => ({ ...r, pos: pos++ }));
  const calls: DecisionFilter[] = [];
  return {
    calls,
    add: (id: string, ts: string) => rows.push({ id, ts, pos: pos++ }),
    list: async (f: DecisionFilter) => {
      calls.push(f);
      const sorted = rows
        .filter((r) => (!f.to || r.ts <= f.to) && (!f.from || r.ts >= f.from))
        .sort((a, b) => (a.ts === b.ts ? b.pos - a.pos : a.ts < b.ts ? 1 : -1));
      const page = sorted.slice(f.offset ?? 0, (f.offset ?? 0) + (f.limit ?? 50));
      return { decisions: page.map((r) => ({ decisionId: r.id, timestamp: r.ts }) as StoredDecision) };
    },
  };
}

const ts = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString();

async function all(it: AsyncIterable<StoredDecision>, onEach?: (d: StoredDecision) => void) {
  const ids: string[] = [];
  for await (const d of it) {
    ids.push(d.decisionId);
    onEach?.(d);
  }
  return ids;
}

describe('iterateDecisionPages', () => {
  it('walks every decision once, newest first, moving `to` down instead of growing the offset', async () => {
    const s = store(Array.from({ length: 7 }, (_, i) => ({ id: `d${i}`, ts: ts(i) })));
    expect(await all(iterateDecisionPages(s.list, { limit: 3 }))).toEqual(['d6', 'd5', 'd4', 'd3', 'd2', 'd1', 'd0']);
    expect(s.calls.map((c) => [c.to, c.offset])).toEqual([
      [undefined, 0],
      [ts(4), 1],
      [ts(1), 1],
    ]);
  });

  it('does not repeat or skip while new decisions arrive at the head', async () => {
    const s = store(Array.from({ length: 6 }, (_, i) => ({ id: `d${i}`, ts: ts(i) })));
    let n = 0;
    const ids = await all(iterateDecisionPages(s.list, { limit: 2 }), () => s.add(`new${n++}`, ts(100 + n)));
    expect(ids).toEqual(['d5', 'd4', 'd3', 'd2', 'd1', 'd0']);
  });

  it('pages through a run of equal timestamps longer than a page', async () => {
    const s = store([{ id: 'old', ts: ts(0) }, ...Array.from({ length: 5 }, (_, i) => ({ id: `same${i}`, ts: ts(1) })), { id: 'new', ts: ts(2) }]);
    expect(await all(iterateDecisionPages(s.list, { limit: 2 }))).toEqual(['new', 'same4', 'same3', 'same2', 'same1', 'same0', 'old']);
  });

  it('from a starting offset, pages by offset and drops what a shift at the head repeats', async () => {
    const s = store(Array.from({ length: 5 }, (_, i) => ({ id: `d${i}`, ts: ts(1) })));
    let n = 0;
    const ids = await all(iterateDecisionPages(s.list, { offset: 1, limit: 2 }), () => s.add(`new${n++}`, ts(2)));
    // d4 is skipped by the offset; each arrival at the head shifts the rest by one
    expect(ids).toEqual(['d3', 'd2', 'd1', 'd0']);
    expect(s.calls.every((c) => c.to === undefined)).toBe(true);
  });

  it('keeps the filter and stops on an empty or short page', async () => {
    const s = store([{ id: 'a', ts: ts(1) }]);
    expect(await all(iterateDecisionPages(s.list, { policyId: 'p', action: 'block' }))).toEqual(['a']);
    expect(s.calls).toEqual([{ policyId: 'p', action: 'block', limit: 100, offset: 0, to: undefined }]);
    expect(await all(iterateDecisionPages(store([]).list))).toEqual([]);
  });
});
