import { Logger } from '@nestjs/common';
import { TOPICS } from '@cds/events';
import { EventLog, liftBatch } from '@cds/event-log';
import { ReadModels } from '@cds/read-models';

export { liftBatch };

const READ_BATCH = 5000;

/**
 * One pass over every partition of every topic: apply from `next` (the next offset per
 * `topic:partition`, updated in place) up to the end offsets read at the start of the
 * pass. Returns how many events it read.
 */
export async function replayPass(
  log: EventLog,
  into: Pick<ReadModels, 'applyBatch'>,
  next: Map<string, number>,
  logger: Pick<Logger, 'error'>,
): Promise<number> {
  let events = 0;
  for (const topic of TOPICS) {
    for (const [partition, end] of await log.endOffsets(topic)) {
      const k = `${topic}:${partition}`;
      let offset = next.get(k) ?? 0;
      while (offset < end) {
        const batch = await log.read(topic, partition, offset, Math.min(READ_BATCH, end - offset));
        if (batch.length === 0) break;
        await into.applyBatch(liftBatch(batch, logger));
        offset = batch[batch.length - 1].offset + 1;
        events += batch.length;
      }
      next.set(k, offset);
    }
  }
  return events;
}
