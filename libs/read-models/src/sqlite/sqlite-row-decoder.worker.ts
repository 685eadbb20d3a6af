import { parentPort } from 'node:worker_threads';
import { EventEnvelope, liftOrPark } from '@cds/events';
import type { EncodedEvent } from '@cds/event-log';
import { rowsOf } from './sqlite-rows';
import type { DecodedRows, DecoderJob, DecoderReply } from './sqlite-row-decoders';

/**
 * A row decoder thread (see SqliteRowDecoders): parses each encoded event, lifts it to its
 * current schema and turns it into SQLite rows. An event that cannot be read is parked as
 * `liftBatch` parks it (`liftOrPark`): skipped, with a message for the parent's log.
 */
function decode(events: EncodedEvent[]): DecodedRows {
  const rows: DecodedRows['rows'] = [];
  const parked: string[] = [];
  for (const e of events) {
    const at = `${e.topic}/${e.partition}@${e.offset}`;
    let envelope: EventEnvelope;
    try {
      envelope = JSON.parse(e.json);
      if (typeof envelope !== 'object' || envelope === null) throw new Error('not an object');
    } catch (err) {
      parked.push(`parked ${at}: not a JSON envelope (${(err as Error).message})`);
      continue;
    }
    const lifted = liftOrPark(envelope, at);
    if ('parked' in lifted) parked.push(lifted.parked);
    else rows.push(rowsOf({ topic: e.topic, partition: e.partition, offset: e.offset, event: lifted.event }));
  }
  return { rows, parked };
}

parentPort!.on('message', (job: DecoderJob) => {
  let reply: DecoderReply;
  try {
    reply = { id: job.id, ...decode(job.events) };
  } catch (err) {
    reply = { id: job.id, error: (err as Error).stack ?? String(err) };
  }
  parentPort!.postMessage(reply);
});
