import { EventEnvelope, Topic, validateEvent } from '@cds/events';
import { EventLog, LogPosition } from '@cds/event-log';

/**
 * Append what already happened (an HTTP attempt was made) until the log takes it: the
 * record must not be lost to a broker that is briefly away. Gives up only when the
 * process is stopping (the delivery is then retried after restart: at least once).
 */
export async function appendDurably(
  log: EventLog,
  topic: Topic,
  events: EventEnvelope[],
  stopping: () => boolean,
  onRetry: (err: Error) => void,
): Promise<LogPosition[]> {
  for (const e of events) validateEvent(e);
  let delay = 200;
  for (;;) {
    try {
      return await log.append(topic, events);
    } catch (err) {
      if (stopping()) throw err;
      onRetry(err as Error);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 10_000);
    }
  }
}
