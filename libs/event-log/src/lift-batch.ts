import { DomainEvent, liftEncodedOrPark, liftOrPark } from '@cds/events';
import { EncodedEvent, LogPosition, StoredEvent } from './event-log.port';

/** A stored event lifted to its current schema, with its log position. */
export interface LiftedEvent extends LogPosition {
  event: DomainEvent;
}

type Logger = { error(message: string): void };

/** Lift stored events to their current schema. An event that cannot be read is parked
 * (logged with its position and skipped) rather than blocking the stream forever. */
export function liftBatch(batch: StoredEvent[], logger: Logger): LiftedEvent[] {
  return liftEach(batch, (s, at) => liftOrPark(s.event, at), logger);
}

/** The same for events as the log holds them (JSON text, see `SubscribeOptions.encoded`):
 * a text that is not a JSON envelope is parked too. */
export function liftEncodedBatch(batch: EncodedEvent[], logger: Logger): LiftedEvent[] {
  return liftEach(batch, (s, at) => liftEncodedOrPark(s.json, at), logger);
}

function liftEach<S extends LogPosition>(batch: S[], lift: (s: S, at: string) => { event: DomainEvent } | { parked: string }, logger: Logger): LiftedEvent[] {
  const out: LiftedEvent[] = [];
  for (const s of batch) {
    const lifted = lift(s, `${s.topic}/${s.partition}@${s.offset}`);
    if ('parked' in lifted) logger.error(lifted.parked);
    else out.push({ topic: s.topic, partition: s.partition, offset: s.offset, event: lifted.event });
  }
  return out;
}
