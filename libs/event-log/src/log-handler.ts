import type { DomainEvent } from '@cds/events';
import type { EncodedEvent, StoredEvent, SubscribeCommon } from './event-log.port';
import { liftBatch, LiftedEvent } from './lift-batch';

/**
 * What a handler did with a batch it was handed: the events it `applied` and those it
 * `skipped` (not its kind, already done, unreadable); or `retryLater`, with why: the same
 * batch is handed again after a backoff and the group's checkpoint stays where it was.
 */
export type HandlerOutcome = { applied: number; skipped: number } | { retryLater: string };

/**
 * A log consumer declared: its consumer group, what it follows, and how it handles a
 * batch, saying what became of it. LogFollower runs it, counts the outcomes and retries
 * what asks to be retried.
 */
export type LogHandler = SubscribeCommon &
  (
    | { encoded?: false; handle: (batch: StoredEvent[]) => Promise<HandlerOutcome> }
    | { encoded: true; handle: (batch: EncodedEvent[]) => Promise<HandlerOutcome> }
  );

/** What one job did with its event. */
export type JobOutcome = 'applied' | 'skipped' | { retryLater: string };

type EventOf<T extends DomainEvent['type']> = Extract<DomainEvent, { type: T }>;

/**
 * A job declared: the one event type it acts on, handled one event at a time, in order.
 * Every other event of its topics is skipped. The first event that asks to be retried
 * hands the whole batch back; the events before it are handed again with it, so a job
 * must find what it already did (the batch and video runners read their job's status).
 */
export interface JobHandler<T extends DomainEvent['type']> extends SubscribeCommon {
  eventType: T;
  handle(event: EventOf<T>, stored: LiftedEvent): Promise<JobOutcome>;
}

interface ParkLogger {
  error(message: string): void;
}

/** A job as the log handler LogFollower runs: unreadable events are logged and skipped. */
export function jobLogHandler<T extends DomainEvent['type']>(job: JobHandler<T>, logger: ParkLogger): LogHandler {
  const { eventType, handle, ...subscription } = job;
  return {
    ...subscription,
    handle: async (batch) => {
      const events = liftBatch(batch, logger);
      let applied = 0;
      for (const stored of events) {
        if (stored.event.type !== eventType) continue;
        const outcome = await handle(stored.event as EventOf<T>, stored);
        if (outcome === 'applied') applied++;
        else if (outcome !== 'skipped') return outcome;
      }
      return { applied, skipped: batch.length - applied };
    },
  };
}
