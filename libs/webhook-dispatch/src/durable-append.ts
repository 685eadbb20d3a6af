import { EventEnvelope, Topic, validateEvent } from '@cds/events';
import { EventLog, LogPosition } from '@cds/event-log';
import { retry } from '@cds/backoff';

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
  return retry(() => log.append(topic, events), APPEND_BACKOFF, { stopped: stopping, onFailure: (err) => onRetry(err as Error) });
}
