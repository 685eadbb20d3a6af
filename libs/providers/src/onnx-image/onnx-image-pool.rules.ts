/** Most frames one forward pass takes: an animation's frames (IMAGE_MAX_FRAMES, 8 by default) in one go. */
export const MAX_IMAGE_BATCH = 8;

/** How many of the `waiting` frames the next idle worker takes: an even share per idle
 * worker (rounded up), so a burst is spread over every core instead of queued on one,
 * and never more than `max`. */
export function imageBatchSize(waiting: number, idleWorkers: number, max = MAX_IMAGE_BATCH): number {
  if (waiting <= 0) return 0;
  return Math.max(1, Math.min(max, Math.ceil(waiting / Math.max(1, idleWorkers))));
}
