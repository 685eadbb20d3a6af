import { backoffDelay, BackoffOptions } from './backoff';

/** How an operation is retried: the backoff between attempts, and when to stop. */
export interface RetryPolicy extends BackoffOptions {
  /** The last attempt: its failure is thrown (default: no limit). */
  maxAttempts?: number;
  /** Whether a failure is worth another attempt; one that is not is thrown (default: all are). */
  retriable?: (err: unknown) => boolean;
}

export interface RetryHooks {
  /** Checked after each failure: once true, the failure is thrown instead of retried. */
  stopped?: () => boolean;
  /** Each failure that will be retried, with the wait before the next attempt (to log it).
   * Throwing from it ends the retries with that error (e.g. a deadline passed). */
  onFailure?: (err: unknown, attempt: number, delayMs: number) => void;
  /** How to wait (default a plain timer); one cut short by a stop lets `stopped` end it. */
  sleep?: (ms: number) => Promise<void>;
}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The one retry loop of the house: runs `attempt` (numbered from 1) until it resolves;
 * between failures waits `backoffDelay` (the base doubling to the cap). Every loop that
 * waits for a server (the log, Elasticsearch, a partition's leader) goes through it, so
 * each says only what it retries, how long to wait, and when to give up.
 */
export async function retry<T>(attempt: (n: number) => Promise<T>, policy: RetryPolicy, hooks: RetryHooks = {}): Promise<T> {
  const sleep = hooks.sleep ?? timer;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (hooks.stopped?.() || n === policy.maxAttempts || (policy.retriable && !policy.retriable(err))) throw err;
      const delay = backoffDelay(n - 1, policy);
      hooks.onFailure?.(err, n, delay);
      await sleep(delay);
    }
  }
}
