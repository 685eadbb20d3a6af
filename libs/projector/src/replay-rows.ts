import { Logger } from '@nestjs/common';
import { TOPICS } from '@cds/events';
import { EventLog } from '@cds/event-log';
import { DecodedRows, RowsAt, SqliteRowDecoders } from '@cds/read-models';

/** Events per decoding job. */
const CHUNK = 1000;

/**
 * One pass over every partition of every topic into SQLite rows, from offset 0 up to
 * the end offsets read at the start. This thread reads the log and writes the rows; the
 * decoder threads parse the events and serialise their documents meanwhile, several
 * chunks ahead. Each partition's rows are written in log order. Returns how many events
 * it read.
 */
export async function replayIntoRows(
  log: EventLog,
  into: { applyRows(batch: RowsAt[]): void },
  decoders: SqliteRowDecoders,
  logger: Pick<Logger, 'error'>,
): Promise<number> {
  const ahead: Promise<DecodedRows>[] = [];
  const apply = async () => {
    const decoded = await ahead.shift()!;
    for (const message of decoded.parked) logger.error(message);
    into.applyRows(decoded.rows);
  };
  let events = 0;
  try {
    for (const topic of TOPICS) {
      for (const [partition, end] of await log.endOffsets(topic)) {
        let offset = 0;
        while (offset < end) {
          const chunk = await log.readEncoded(topic, partition, offset, Math.min(CHUNK, end - offset));
          if (chunk.length === 0) break;
          offset = chunk[chunk.length - 1].offset + 1;
          events += chunk.length;
          ahead.push(decoders.decode(chunk));
          // two chunks per thread: one being decoded, one waiting
          if (ahead.length >= 2 * decoders.threads) await apply();
        }
      }
    }
    while (ahead.length) await apply();
    return events;
  } finally {
    // After a failure, the chunks still out settle unobserved.
    for (const p of ahead) p.catch(() => undefined);
  }
}
