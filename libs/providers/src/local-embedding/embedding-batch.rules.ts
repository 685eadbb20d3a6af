/** Dynamic batching: texts that arrive while the workers are busy wait in the queue and
 * leave together, as one forward pass, when a worker frees up. There is no waiting window:
 * at low load a text goes out alone at once, so batching adds no latency. */
export interface BatchLimits {
  /** texts per forward pass; throughput stops growing past ~16 on one core */
  maxBatch: number;
  /** characters per forward pass: a batch of long texts is cut short so it cannot hold a
   * worker (and the short texts behind it) for long */
  maxBatchChars: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxBatch: 16, maxBatchChars: 12_000 };

/**
 * How many queued texts (from the head of the queue, `lengths` in queue order) the next
 * idle worker takes: an even share of the queue among the idle workers (so two idle
 * workers split a burst instead of one taking it all), at most `maxBatch`, cut where the
 * characters would pass `maxBatchChars`, and never less than one.
 */
export function nextBatchSize(lengths: readonly number[], idleWorkers: number, limits: BatchLimits): number {
  if (lengths.length === 0) return 0;
  const share = Math.ceil(lengths.length / Math.max(1, idleWorkers));
  const cap = Math.max(1, Math.min(share, limits.maxBatch));
  let n = 1;
  let chars = lengths[0];
  while (n < cap && chars + lengths[n] <= limits.maxBatchChars) {
    chars += lengths[n];
    n++;
  }
  return n;
}

export function validateBatchLimits(l: BatchLimits): void {
  if (!Number.isInteger(l.maxBatch) || l.maxBatch < 1) throw new RangeError(`maxBatch must be an integer >= 1, got ${l.maxBatch}`);
  if (!(l.maxBatchChars >= 1)) throw new RangeError(`maxBatchChars must be >= 1, got ${l.maxBatchChars}`);
}
