/** First wait and longest wait of an exponential backoff. */
export interface BackoffOptions {
  /** Wait before the first retry. */
  baseMs: number;
  /** No wait is longer. */
  maxMs: number;
}

/** Beyond this many doublings every sane cap is reached; stopping here keeps a zero
 * base or a runaway retry count from turning into NaN or Infinity. */
const MAX_DOUBLINGS = 30;

/**
 * Wait before retry number `retry` (0 for the first): `baseMs` doubled `retry` times,
 * capped at `maxMs`. Callers that spread retries out add their own jitter on top.
 */
export function backoffDelay(retry: number, { baseMs, maxMs }: BackoffOptions): number {
  const doublings = Math.min(MAX_DOUBLINGS, Math.max(0, Math.floor(retry))) || 0;
  return Math.min(maxMs, baseMs * 2 ** doublings);
}
