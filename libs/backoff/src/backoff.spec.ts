import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  const o = { baseMs: 200, maxMs: 5_000 };

  it('doubles from the base for each retry, up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((r) => backoffDelay(r, o))).toEqual([200, 400, 800, 1_600, 3_200, 5_000, 5_000]);
  });

  it('caps the first wait too', () => {
    expect(backoffDelay(0, { baseMs: 10_000, maxMs: 2_000 })).toBe(2_000);
  });

  it('stays at the cap however many retries came before', () => {
    expect(backoffDelay(1_000, o)).toBe(5_000);
    expect(backoffDelay(Number.MAX_SAFE_INTEGER, o)).toBe(5_000);
    expect(backoffDelay(Infinity, o)).toBe(5_000);
  });

  it('reads a negative, fractional or missing retry count as the nearest whole one from 0', () => {
    expect(backoffDelay(-3, o)).toBe(200);
    expect(backoffDelay(2.7, o)).toBe(800);
    expect(backoffDelay(NaN, o)).toBe(200);
  });

  it('never gives NaN for a zero base', () => {
    expect(backoffDelay(10_000, { baseMs: 0, maxMs: 1_000 })).toBe(0);
  });
});
