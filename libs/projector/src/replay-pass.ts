import { Logger } from '@nestjs/common';
import { Topic, TOPICS } from '@cds/events';
import { EventLog, liftBatch } from '@cds/event-log';
import { ReadModels } from '@cds/read-models';

export { liftBatch };

const READ_BATCH = 5000;

/** Partitions applied side by side: a replay is mostly round trips (bulk writes). */
const CONCURRENT_PARTITIONS = 8;

/**
 * One pass over every partition of every topic: apply from `next` (the next offset per
 * `topic:partition`, updated in place) up to the end offsets read at the start of the
 * pass. Returns how many events it read. Partitions are applied side by side, as the
 * live projector does: every read-model document comes from one aggregate, hence one
 * partition of one topic, and positions are kept per partition. Reads from the log go
 * one at a time: kafkajs opens a broker's fetch connection without a lock, so fetches
 * racing to a fresh (or dropped) connection each open a socket, and all but one leak
 * (the process then never exits). Reading is the short part; the writes overlap.
 */
export async function replayPass(
  log: EventLog,
  into: Pick<ReadModels, 'applyBatch'>,
  next: Map<string, number>,
  logger: Pick<Logger, 'error'>,
): Promise<number> {
  const work: { topic: Topic; partition: number; end: number }[] = [];
  for (const topic of TOPICS) for (const [partition, end] of await log.endOffsets(topic)) work.push({ topic, partition, end });
  let reading: Promise<unknown> = Promise.resolve();
  const readAlone = <T>(read: () => Promise<T>): Promise<T> => {
    const r = reading.then(read);
    reading = r.catch(() => undefined);
    return r;
  };
  let events = 0;
  let failed = false;
  const replayPartition = async ({ topic, partition, end }: (typeof work)[number]) => {
    const k = `${topic}:${partition}`;
    let offset = next.get(k) ?? 0;
    while (offset < end && !failed) {
      const batch = await readAlone(() => log.read(topic, partition, offset, Math.min(READ_BATCH, end - offset)));
      if (batch.length === 0) break;
      await into.applyBatch(liftBatch(batch, logger));
      offset = batch[batch.length - 1].offset + 1;
      events += batch.length;
    }
    next.set(k, offset);
  };
  // A failure stops the other lanes before their next partition, and the pass settles
  // only once none writes any more (the caller may delete what they were writing into).
  let taken = 0;
  const lane = async () => {
    while (!failed && taken < work.length) {
      try {
        await replayPartition(work[taken++]);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(CONCURRENT_PARTITIONS, work.length) }, lane));
  const failure = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
  if (failure) throw failure.reason;
  return events;
}
