import { backoffDelay, parseRetryAfter } from './retry-timing';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-03-01T12:00:00Z');

  it.each([
    ['1', 1000],
    [' 120 ', 120_000],
    ['0', 0],
    ['1.5', 1500],
    ['Sat, 01 Mar 2025 12:00:30 GMT', 30_000],
    ['Sat, 01 Mar 2025 11:59:00 GMT', 0],
  ])('reads %j as %d ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([null, undefined, '', '-1', '1.5e3', 'soon', 'Sat, 99 Foo 2025'])('ignores %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  const opts = { baseMs: 100, maxMs: 1000 };

  it('doubles per retry up to the cap, half of it fixed and half jitter', () => {
    expect([0, 1, 2, 3, 4, 10].map((r) => backoffDelay(r, opts, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([0, 1, 2, 3, 4, 10].map((r) => backoffDelay(r, opts, () => 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelay(1, opts, () => 0.5)).toBe(150);
  });
});
