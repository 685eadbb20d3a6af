/** What a worker has done, for the pace of the pool. */
export interface WorkerPace {
  ready: boolean;
  /** items completed */
  items: number;
  /** ms spent on them */
  busyMs: number;
}

/** Longest wait a refused caller is told (Retry-After), in seconds. */
export const MAX_RETRY_AFTER_SECONDS = 60;

/**
 * Seconds the queue takes to drain at the pool's measured pace (each live worker's items
 * per second of work, summed): what a caller refused with a full queue is told to wait
 * before retrying. At least 1, at most MAX_RETRY_AFTER_SECONDS; 1 before any item is done.
 */
export function drainSeconds(queued: number, workers: readonly WorkerPace[]): number {
  let perSecond = 0;
  for (const w of workers) if (w.ready && w.busyMs > 0) perSecond += (w.items * 1000) / w.busyMs;
  if (!(perSecond > 0)) return 1;
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(queued / perSecond)));
}
