import { liftEncodedOrPark } from '@cds/events';
import type { EncodedEvent } from '@cds/event-log';
import { rowsOf, RowsAt } from './sqlite-rows';

export interface DecodedRows {
  rows: RowsAt[];
  /** One message per event that could not be read (skipped), for the caller's log. */
  parked: string[];
}

/**
 * Encoded events to SQLite rows: parse each, lift it to its current schema, map it to its
 * rows (a decision's document cut out of the event's text). An event that cannot be read
 * is parked as `liftBatch` parks it (`liftEncodedOrPark`): skipped, with a message for
 * the log. What the decoder and writer threads run.
 */
export function decodeRows(events: EncodedEvent[]): DecodedRows {
  const rows: RowsAt[] = [];
  const parked: string[] = [];
  for (const e of events) {
    const lifted = liftEncodedOrPark(e.json, `${e.topic}/${e.partition}@${e.offset}`);
    if ('parked' in lifted) parked.push(lifted.parked);
    else rows.push(rowsOf({ topic: e.topic, partition: e.partition, offset: e.offset, event: lifted.event }, e.json));
  }
  return { rows, parked };
}
