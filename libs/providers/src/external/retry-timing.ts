import { backoffDelay as exponentialDelay, type BackoffOptions } from '@cds/backoff';

/**
 * The wait a `Retry-After` header asks for, in ms: delta-seconds (`120`, decimals
 * tolerated) or an HTTP date (RFC 9110), counted from `now`. A date in the past waits 0.
 * Absent or unreadable: undefined (the caller backs off on its own).
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only dates with a weekday or month name: Date.parse alone reads "1.5e3" or "-1" as dates.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** First and longest wait, before jitter. */
export type { BackoffOptions };

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 250, maxMs: 4000 };

/**
 * Wait before retry number `retry` (0 for the first): exponential (base × 2^retry, capped)
 * with "equal jitter": half of it fixed, half random, so concurrent callers spread out but
 * never retry at once.
 */
export function backoffDelay(retry: number, options: BackoffOptions = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const exp = exponentialDelay(retry, options);
  return Math.round(exp / 2 + random() * (exp / 2));
}
