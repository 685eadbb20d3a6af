/**
 * When a failed attempt is tried again, and after how long. Pure: the transport hands in
 * what happened, a random source and the options.
 */

/**
 * `idempotent`: a repeat cannot make a second effect (reads, dry runs, checks carrying an
 * idempotency key, upserts): retried on 429, any 5xx and any network failure.
 * `unprocessed`: a write the service cannot deduplicate (webhook and key creation, jobs,
 * guardrail decisions, synchronous batches): retried only when the service certainly did
 * nothing: 429 (refused before the handler runs), 503 `EVENT_LOG_UNAVAILABLE` ("nothing was
 * recorded"), and connections that were never established.
 */
export type RetryMode = 'idempotent' | 'unprocessed';

export type AttemptOutcome = { kind: 'http'; status: number; code: string } | { kind: 'network'; connected: boolean };

export function isRetryable(outcome: AttemptOutcome, mode: RetryMode): boolean {
  if (outcome.kind === 'network') return mode === 'idempotent' || !outcome.connected;
  if (outcome.status === 429) return true;
  if (outcome.status < 500) return false;
  return mode === 'idempotent' || (outcome.status === 503 && outcome.code === 'EVENT_LOG_UNAVAILABLE');
}

export interface BackoffOptions {
  /** The first retry waits up to this long. */
  baseDelayMs: number;
  /** No computed wait is longer. */
  maxDelayMs: number;
}

/**
 * Exponential backoff with full jitter (a uniformly random wait between 0 and
 * min(max, base × 2^retry)), so clients that failed together do not come back together.
 * `retry` counts from 0 for the first retry.
 */
export function backoffDelay(retry: number, o: BackoffOptions, random: () => number): number {
  const ceiling = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/**
 * The wait before the next attempt, or null when there should be none: the service's
 * `Retry-After` when it sent one (a wait longer than `maxRetryAfterMs` is not waited
 * out: the error goes to the caller with its `retryAfter`), else the backoff.
 */
export function nextDelay(
  retry: number,
  retryAfterMs: number | undefined,
  o: BackoffOptions & { maxRetryAfterMs: number },
  random: () => number,
): number | null {
  if (retryAfterMs !== undefined) return retryAfterMs <= o.maxRetryAfterMs ? retryAfterMs : null;
  return backoffDelay(retry, o, random);
}
