import { timeOrderedId } from './time-ordered-id';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const millisOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('timeOrderedId', () => {
  it('is a version 7 UUID of the RFC variant', () => {
    for (let i = 0; i < 1000; i++) expect(timeOrderedId()).toMatch(V7);
  });

  it('carries the time it was made in its first 48 bits', () => {
    const at = Date.UTC(2026, 10, 28, 7, 30, 0, 123);
    expect(millisOf(timeOrderedId(at))).toBe(at);
    const before = Date.now();
    const id = timeOrderedId();
    expect(millisOf(id)).toBeGreaterThanOrEqual(before);
    expect(millisOf(id)).toBeLessThanOrEqual(Date.now());
  });

  it('sorts by time: an id of a later millisecond sorts after every id of an earlier one', () => {
    const ids = [5, 4, 3, 2, 1].flatMap((ms) => Array.from({ length: 20 }, () => timeOrderedId(1_700_000_000_000 + ms)));
    const sorted = [...ids].sort();
    expect(sorted.map(millisOf)).toEqual([...ids.map(millisOf)].sort((a, b) => a - b));
  });

  it('keeps the rest random: no two ids of the same millisecond are equal', () => {
    const ids = Array.from({ length: 50_000 }, () => timeOrderedId(1_700_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(15))).size).toBe(ids.length);
  });

  it('keeps 48 bits for any time, zero-padded', () => {
    expect(timeOrderedId(0)).toMatch(/^00000000-0000-7/);
    expect(timeOrderedId(0xffffffffffff)).toMatch(/^ffffffff-ffff-7/);
  });
});
