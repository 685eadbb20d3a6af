import { backoffDelay } from '@cds/backoff';
import { EventLog, SubscribeOptions, Subscription } from './event-log.port';

interface FollowerLogger {
  log(message: string): void;
  error(message: string): void;
}

const RETRY = { baseMs: 500, maxMs: 30_000 };

/**
 * A subscription made in the background: while the log cannot take it (broker away at
 * start, group coordinator moving) it is retried with backoff (0.5 s doubling to 30 s),
 * each failure logged. Lets a process start, answer its probes and shut down cleanly
 * whatever state the log is in.
 */
export class LogFollower {
  private subscription: Subscription | null = null;
  private stopping = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly log: EventLog,
    private readonly options: SubscribeOptions,
    private readonly logger: FollowerLogger,
  ) {
    void this.subscribeUntilDone();
  }

  /** The subscription is in place (it keeps itself alive from then on). */
  get subscribed(): boolean {
    return this.subscription !== null;
  }

  private async subscribeUntilDone(): Promise<void> {
    for (let attempt = 1; !this.stopping; attempt++) {
      try {
        const subscription = await this.log.subscribe(this.options);
        if (this.stopping) return void (await subscription.stop());
        this.subscription = subscription;
        this.logger.log(`consumer group ${this.options.group} follows ${this.options.topics.join(', ')}`);
        return;
      } catch (err) {
        if (this.stopping) return;
        const delay = backoffDelay(attempt - 1, RETRY);
        this.logger.error(
          `consumer group ${this.options.group} cannot follow the log yet (attempt ${attempt}): ${(err as Error).message}; retrying in ${delay} ms`,
        );
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
      }
    }
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
