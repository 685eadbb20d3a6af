import { EventEnvelope, Topic, validateEvent } from '@cds/events';
import { EventLog, LogPosition } from '@cds/event-log';
import { backoffDelay } from '@cds/backoff';

const APPEND_BACKOFF = { baseMs: 200, maxMs: 10_000 };

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
  for (let retry = 0; ; retry++) {
    try {
      return await log.append(topic, events);
    } catch (err) {
      if (stopping()) throw err;
      onRetry(err as Error);
      await new Promise((r) => setTimeout(r, backoffDelay(retry, APPEND_BACKOFF)));
    }
  }
}
