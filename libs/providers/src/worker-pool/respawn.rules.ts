import { backoffDelay } from '@cds/backoff';

/** A worker slot that dies this many times in a row (no job completed in between) is
 * given up on; when every slot is given up (or one is, during start-up) the pool fails. */
export const MAX_CONSECUTIVE_WORKER_CRASHES = 5;

const RESPAWN_BACKOFF = { baseMs: 500, maxMs: 30_000 };

/** Delay before respawning a worker after its `crashes`-th consecutive crash (1-based):
 * 0.5 s, 1 s, 2 s, 4 s, … capped at 30 s. */
export function respawnDelayMs(crashes: number): number {
  return backoffDelay(Math.max(1, Math.floor(crashes)) - 1, RESPAWN_BACKOFF);
}
