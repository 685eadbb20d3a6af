import { backoffDelay, isRetryable, nextDelay } from './retry.policy';

describe('isRetryable', () => {
  const http = (status: number, code = 'X') => ({ kind: 'http' as const, status, code });

  it('retries an idempotent request on 429, every 5xx and every network failure, never on another 4xx', () => {
    for (const status of [429, 500, 502, 503, 504]) expect(isRetryable(http(status), 'idempotent')).toBe(true);
    for (const status of [400, 401, 402, 403, 404, 409, 413, 422]) expect(isRetryable(http(status), 'idempotent')).toBe(false);
    expect(isRetryable({ kind: 'network', connected: true }, 'idempotent')).toBe(true);
    expect(isRetryable({ kind: 'network', connected: false }, 'idempotent')).toBe(true);
  });

  it('retries a write the service cannot deduplicate only when it certainly did nothing', () => {
    expect(isRetryable(http(429), 'unprocessed')).toBe(true);
    expect(isRetryable(http(503, 'EVENT_LOG_UNAVAILABLE'), 'unprocessed')).toBe(true);
    expect(isRetryable({ kind: 'network', connected: false }, 'unprocessed')).toBe(true);
    expect(isRetryable(http(500), 'unprocessed')).toBe(false);
    expect(isRetryable(http(503, 'EVENT_LOG_UNCERTAIN'), 'unprocessed')).toBe(false);
    expect(isRetryable({ kind: 'network', connected: true }, 'unprocessed')).toBe(false);
    expect(isRetryable(http(422), 'unprocessed')).toBe(false);
  });
});

describe('backoffDelay (full jitter)', () => {
  const o = { baseDelayMs: 100, maxDelayMs: 1000 };

  it('draws uniformly below base × 2^retry', () => {
    expect([0, 1, 2, 3].map((r) => backoffDelay(r, o, () => 0.999999))).toEqual([99, 199, 399, 799]);
    expect(backoffDelay(2, o, () => 0)).toBe(0);
    expect(backoffDelay(2, o, () => 0.5)).toBe(200);
  });

  it('never exceeds maxDelayMs however many retries', () => {
    expect(backoffDelay(4, o, () => 0.999999)).toBe(999);
    expect(backoffDelay(60, o, () => 0.999999)).toBe(999);
  });
});

describe('nextDelay', () => {
  const o = { baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };

  it("waits the service's Retry-After instead of the backoff", () => {
    expect(nextDelay(0, 3000, o, () => 0.5)).toBe(3000);
    expect(nextDelay(0, 0, o, () => 0.5)).toBe(0);
  });

  it('gives up rather than wait past maxRetryAfterMs', () => {
    expect(nextDelay(0, 5001, o, () => 0.5)).toBeNull();
  });

  it('falls back to the backoff without Retry-After', () => {
    expect(nextDelay(1, undefined, o, () => 0.5)).toBe(100);
  });
});
