import { Topic, TOPICS } from '@cds/events';
import type { EventLog } from '@cds/event-log';
import type { GenerationLoad } from '@cds/read-models';

/** What a replay pass writes into: a generation being loaded, or the read models the
 * live projector brings to the log's end (ProjectorService). */
export type ReplayTarget = Pick<GenerationLoad, 'feed' | 'apply'>;

/**
 * One pass over every partition of every topic: apply from `next` (the next offset per
 * `topic:partition`, moved on as each chunk is applied) up to the end offsets read at the
 * start of the pass. Returns how many events it read. Partitions are replayed side by
 * side as the target's feed says (`partitionsAtOnce`), as the live projector does: every
 * read-model document comes from one aggregate, hence one partition of one topic, and
 * positions are kept per partition; within a partition up to `chunksAhead` chunks are
 * handed over before the first is applied (the target writes them in order). Reads from
 * the log go one at a time: kafkajs opens a broker's fetch connection without a lock, so
 * fetches racing to a fresh (or dropped) connection each open a socket, and all but one
 * leak (the process then never exits). Reading is the short part; the writes overlap.
 */
export async function replayPass(log: EventLog, into: ReplayTarget, next: Map<string, number>, logger: { error(message: string): void }): Promise<number> {
  const { chunk, partitionsAtOnce, chunksAhead } = into.feed;
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
    const ahead: Promise<void>[] = [];
    try {
      while (offset < end && !failed) {
        const batch = await readAlone(() => log.readEncoded(topic, partition, offset, Math.min(chunk, end - offset)));
        if (batch.length === 0) break;
        offset = batch[batch.length - 1].offset + 1;
        events += batch.length;
        const applied = offset;
        const written = into.apply(batch).then((parked) => {
          for (const message of parked) logger.error(message);
          next.set(k, applied);
        });
        written.catch(() => undefined); // observed below; a failure meanwhile is no unhandled rejection
        ahead.push(written);
        if (ahead.length >= chunksAhead) await ahead.shift();
      }
      while (ahead.length) await ahead.shift();
    } finally {
      // After a failure, the chunks still out settle before the pass does.
      await Promise.allSettled(ahead);
    }
  };
  // A failure stops the other lanes before their next chunk, and the pass settles only
  // once none writes any more (the caller may delete what they were writing into).
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
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(partitionsAtOnce, work.length) }, lane));
  const failure = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
  if (failure) throw failure.reason;
  return events;
}
