import { Logger } from '@nestjs/common';
import { DomainEvent, EventSchemaError, TOPICS, upcast } from '@cds/events';
import { EventLog, StoredEvent } from '@cds/event-log';
import { ProjectedEvent, ReadModels } from '@cds/read-models';

const READ_BATCH = 5000;

/** Lift stored events to their current schema. An event that cannot be read is parked
 * (logged with its position and skipped) rather than blocking the stream forever. */
export function liftBatch(batch: StoredEvent[], logger: Pick<Logger, 'error'>): ProjectedEvent[] {
  const out: ProjectedEvent[] = [];
  for (const s of batch) {
    let event: DomainEvent;
    try {
      event = upcast(s.event);
    } catch (err) {
      if (!(err instanceof EventSchemaError)) throw err;
      logger.error(`parked ${s.topic}/${s.partition}@${s.offset} (${s.event?.type}): ${err.message}`);
      continue;
    }
    out.push({ topic: s.topic, partition: s.partition, offset: s.offset, event });
  }
  return out;
}

/**
 * One pass over every partition of every topic: apply from `next` (the next offset per
 * `topic:partition`, updated in place) up to the end offsets read at the start of the
 * pass. Returns how many events it read.
 */
export async function replayPass(log: EventLog, into: Pick<ReadModels, 'applyBatch'>, next: Map<string, number>, logger: Pick<Logger, 'error'>): Promise<number> {
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

