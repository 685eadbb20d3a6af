import { backoffDelay, retry } from '@cds/backoff';
import type { Topic } from '@cds/events';
import type { LogPosition, Subscription } from '../event-log.port';
import type { GroupCheckpoints } from './checkpoint-store';

/** What a subscription needs from the log. */
export interface SubscriptionSource {
  endOffset(topic: Topic): number;
  /** Events from `from`, parsed or as text: whichever the handler takes. */
  read(topic: Topic, from: number, max: number): Promise<LogPosition[]>;
  /** Call `listener` whenever new events of `topic` are durable; returns the unsubscribe function. */
  onAppended(topic: Topic, listener: () => void): () => void;
}

export interface SubscriptionSettings {
  group: string;
  /** Next offset to deliver, per topic. */
  positions: Map<Topic, number>;
  handler: (batch: LogPosition[]) => Promise<void>;
  maxBatch: number;
  retryInitialMs: number;
  retryMaxMs: number;
}

/**
 * Delivers the events of its topics, in offset order per topic, one handler call at a
 * time (topics take turns, one batch each). It reads from the log until it has caught
 * up, then sleeps until an append makes new events durable; recent events come from
 * the log's in-memory tail, so a subscriber that keeps up never reads the disk.
 * The group's checkpoint moves past a batch only after the handler resolved; a handler
 * that throws gets the same batch again after a backoff, until it succeeds or `stop()`.
 */
export class FileSubscription implements Subscription {
  private stopping = false;
  /** Set by every append notification, so one arriving mid-round is not slept through. */
  private signaled = false;
  private wake: (() => void) | null = null;
  private interruptPause: (() => void) | null = null;
  private readonly unsubscribes: Array<() => void>;
  private readonly running: Promise<void>;
  private stopped: Promise<void> | null = null;

  constructor(
    private readonly settings: SubscriptionSettings,
    private readonly checkpoints: GroupCheckpoints,
    private readonly source: SubscriptionSource,
    private readonly logger: { warn(message: string): void; log(message: string): void },
    private readonly onStopped: () => void,
  ) {
    this.unsubscribes = [...settings.positions.keys()].map((topic) => source.onAppended(topic, () => this.notify()));
    this.running = this.run();
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping = true;
      this.notify();
      this.interruptPause?.();
      await this.running;
      for (const unsubscribe of this.unsubscribes) unsubscribe();
      await this.checkpoints.flush();
      this.onStopped();
    })();
    return this.stopped;
  }

  private notify(): void {
    this.signaled = true;
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      this.signaled = false;
      let progressed: boolean;
      try {
        progressed = await this.round();
        failures = 0;
      } catch (err) {
        // Reading failed (the handler's own failures are retried in deliver()).
        failures += 1;
        this.logger.warn(`subscription ${this.settings.group}: reading the log failed: ${(err as Error).message}`);
        await this.pause(this.backoff(failures));
        continue;
      }
      if (!progressed && !this.signaled && !this.stopping) {
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    }
  }

  /** One batch of each topic that has undelivered events; whether any was delivered. */
  private async round(): Promise<boolean> {
    const { positions, maxBatch } = this.settings;
    let progressed = false;
    for (const [topic, from] of positions) {
      if (this.stopping) break;
      if (from >= this.source.endOffset(topic)) continue;
      const batch = await this.source.read(topic, from, maxBatch);
      if (batch.length === 0) continue;
      if (!(await this.deliver(batch))) break;
      const next = batch[batch.length - 1].offset + 1;
      positions.set(topic, next);
      this.checkpoints.set(topic, next);
      progressed = true;
    }
    return progressed;
  }

  /** The handler until it resolves (true), or until stopped (false). */
  private async deliver(batch: LogPosition[]): Promise<boolean> {
    const { group, handler, retryInitialMs, retryMaxMs } = this.settings;
    const first = batch[0];
    const last = batch[batch.length - 1];
    try {
      await retry(
        async (attempt) => {
          if (this.stopping) throw new Error('stopping');
          await handler(batch);
          if (attempt > 1) this.logger.log(`subscription ${group}: handler succeeded after ${attempt} attempts`);
        },
        { baseMs: retryInitialMs, maxMs: retryMaxMs },
        {
          stopped: () => this.stopping,
          onFailure: (err, attempt, delay) =>
            this.logger.warn(
              `subscription ${group}: handler failed on ${first.topic}/${first.partition}@${first.offset}..${last.offset} ` +
                `(attempt ${attempt}, retrying in ${delay} ms): ${(err as Error)?.message ?? String(err)}`,
            ),
          sleep: (ms) => this.pause(ms),
        },
      );
      return true;
    } catch {
      return false; // stopped
    }
  }

  /** The wait after the `failures`-th failed read in a row. */
  private backoff(failures: number): number {
    return backoffDelay(failures - 1, { baseMs: this.settings.retryInitialMs, maxMs: this.settings.retryMaxMs });
  }

  /** Sleep `ms`, cut short only by `stop()` (appends do not end a backoff). */
  private pause(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.interruptPause = done;
    }).finally(() => {
      this.interruptPause = null;
    });
  }
}
