import { backoffDelay } from '@cds/backoff';

/** What a worker found after asking tfjs for its backend. */
export interface BackendReport {
  backend: string;
  simd: boolean;
}

/** Why the backend is unfit, or null. The pure-JS cpu backend and wasm without SIMD are
 * 5-20× slower: a pool on them would answer, but far too slowly, so it refuses to start. */
export function backendProblem(report: BackendReport): string | null {
  if (report.backend !== 'wasm') {
    return `tfjs runs on the "${report.backend}" backend, not "wasm": image classification would be ~20× slower; refusing to start`;
  }
  if (!report.simd) {
    return 'tfjs wasm backend has no SIMD support in this runtime: image classification would be several times slower; refusing to start';
  }
  return null;
}

/** A worker slot that dies this many times in a row (no job completed in between) is
 * given up on; when every slot is given up (or one is, during start-up) the pool fails. */
export const MAX_CONSECUTIVE_WORKER_CRASHES = 5;

const RESPAWN_BACKOFF = { baseMs: 500, maxMs: 30_000 };

/** Delay before respawning a worker after its `crashes`-th consecutive crash (1-based):
 * 0.5 s, 1 s, 2 s, 4 s, … capped at 30 s. */
export function respawnDelayMs(crashes: number): number {
  return backoffDelay(Math.max(1, Math.floor(crashes)) - 1, RESPAWN_BACKOFF);
}
