import { retry } from '@cds/backoff';
import { EncodedEvent, EventLog, StoredEvent, SubscribeOptions, Subscription } from './event-log.port';
import { HandlerOutcome, LogHandler } from './log-handler';

interface FollowerLogger {
  log(message: string): void;
  error(message: string): void;
}

const RETRY = { baseMs: 500, maxMs: 30_000 };

/** Where the outcomes are counted, events by handler (the group) and outcome (a
 * prom-client Counter fits). A batch handed back counts its events as `retry_later`. */
export interface OutcomeCounter {
  inc(labels: { handler: string; outcome: 'applied' | 'skipped' | 'retry_later' }, value: number): void;
}

/** Why a handler's batch is handed again: what it said. */
export class RetryLater extends Error {}

/**
 * Runs a declared log handler (see LogHandler): each batch's outcome counted, a
 * `retryLater` handed back to the log (which hands the batch again after its backoff).
 * The subscription is made in the background: while the log cannot take it (broker away
 * at start, group coordinator moving) it is retried with backoff (0.5 s doubling to
 * 30 s), each failure logged. Lets a process start, answer its probes and shut down
 * cleanly whatever state the log is in.
 */
export class LogFollower {
  private subscription: Subscription | null = null;
  private stopping = false;
  private wake: (() => void) | null = null;
  private readonly options: SubscribeOptions;

  constructor(
    private readonly log: EventLog,
    handler: LogHandler,
    private readonly logger: FollowerLogger,
    outcomes?: OutcomeCounter,
  ) {
    const { handle, ...subscription } = handler;
    const run = async (batch: StoredEvent[] | EncodedEvent[]): Promise<void> => {
      const outcome = await (handle as (b: typeof batch) => Promise<HandlerOutcome>)(batch);
      const group = handler.group;
      if ('retryLater' in outcome) {
        outcomes?.inc({ handler: group, outcome: 'retry_later' }, batch.length);
        throw new RetryLater(outcome.retryLater);
      }
      if (outcome.applied > 0) outcomes?.inc({ handler: group, outcome: 'applied' }, outcome.applied);
      if (outcome.skipped > 0) outcomes?.inc({ handler: group, outcome: 'skipped' }, outcome.skipped);
    };
    this.options = { ...subscription, handler: run } as SubscribeOptions;
    void this.subscribeUntilDone();
  }

  /** The subscription is in place (it keeps itself alive from then on). */
  get subscribed(): boolean {
    return this.subscription !== null;
  }

  private async subscribeUntilDone(): Promise<void> {
    const { group, topics } = this.options;
    let subscription: Subscription;
    try {
      subscription = await retry(
        async () => {
          if (this.stopping) throw new Error('stopping');
          return this.log.subscribe(this.options);
        },
        RETRY,
        {
          stopped: () => this.stopping,
          onFailure: (err, attempt, delay) =>
            this.logger.error(`consumer group ${group} cannot follow the log yet (attempt ${attempt}): ${(err as Error).message}; retrying in ${delay} ms`),
          sleep: (ms) => this.pause(ms),
        },
      );
    } catch {
      return; // stopped before the log took it
    }
    if (this.stopping) return void (await subscription.stop());
    this.subscription = subscription;
    this.logger.log(`consumer group ${group} follows ${topics.join(', ')}`);
  }

  /** Sleeps `ms`, or less when stop() is called. */
  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (this.wake = null));
  }

  /** Stops retrying, or stops the subscription (waiting for its in-flight batch). A
   * subscribe still waiting for the log is not awaited (it waits until the log closes);
   * whenever it completes, the loop sees `stopping` and stops what it got. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.stop();
  }
}
