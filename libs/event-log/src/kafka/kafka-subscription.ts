import { Admin, Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import { retry } from '@cds/backoff';
import { LogPosition, positionsHandler, SubscribeOptions, Subscription } from '../event-log.port';
import { KafkaEventLogLogger } from './kafka-event-log.options';
import { errText } from './kafka-logging';
import { KafkaNaming } from './kafka-naming';
import { KafkaRecordCodec } from './kafka-record-codec';

export interface SubscriptionTuning {
  sessionTimeoutMs: number;
  retryInitialMs: number;
  retryMaxMs: number;
}

/**
 * One consumer group member: `eachBatch` without auto-resolve or auto-commit; the offset
 * of a chunk is committed only after the handler resolved; a throwing handler gets the
 * same chunk again, with backoff, forever (never skipped). Restarts its consumer if
 * kafkajs gives up on it.
 */
export class KafkaSubscription implements Subscription {
  onStopped: () => void = () => undefined;
  private consumer: Consumer | null = null;
  private stopping = false;
  private stopped: Promise<void> | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  /** Handlers waiting out a retry backoff (several with concurrent partitions). */
  private readonly wakers = new Set<() => void>();
  private readonly maxBatch: number;

  constructor(
    private readonly kafka: Kafka,
    private readonly naming: KafkaNaming,
    private readonly codec: KafkaRecordCodec,
    private readonly logger: KafkaEventLogLogger,
    private readonly options: SubscribeOptions,
    private readonly tuning: SubscriptionTuning,
  ) {
    this.maxBatch = Math.max(1, options.maxBatch ?? 500);
  }

  private get name(): string {
    return `consumer group ${this.naming.groupName(this.options.group)}`;
  }

  async start(): Promise<void> {
    const consumer = this.kafka.consumer({
      groupId: this.naming.groupName(this.options.group),
      sessionTimeout: this.tuning.sessionTimeoutMs,
      heartbeatInterval: Math.min(3_000, Math.floor(this.tuning.sessionTimeoutMs / 3)),
      rebalanceTimeout: 60_000,
      allowAutoTopicCreation: false,
      maxBytesPerPartition: 1024 * 1024,
      maxWaitTimeInMs: 500,
      retry: {
        initialRetryTime: 200,
        maxRetryTime: 5_000,
        retries: 10,
        // kafkajs restarts the consumer itself after retriable failures (broker gone)
        restartOnFailure: async (e: Error) => {
          if (!this.stopping) this.logger.warn(`${this.name}: consumer failed (${errText(e)}); kafkajs restarts it`);
          return !this.stopping;
        },
      },
    });
    this.consumer = consumer;
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (this.stopping) return;
      if (!payload.restart) {
        this.logger.error(`${this.name}: consumer crashed (${errText(payload.error)}); restarting it`);
        this.scheduleRestart(consumer);
      }
    });
    await consumer.connect();
    await consumer.subscribe({ topics: this.options.topics.map((t) => this.naming.topicName(t)), fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: Math.max(1, this.options.concurrentPartitions ?? 1),
      eachBatch: (payload) => this.eachBatch(payload),
    });
  }

  private scheduleRestart(old: Consumer): void {
    if (this.restartTimer || this.stopping) return;
    this.restartTimer = setTimeout(async () => {
      this.restartTimer = null;
      if (this.stopping || this.consumer !== old) return;
      await old.disconnect().catch(() => undefined);
      try {
        await this.start();
      } catch (e) {
        this.logger.error(`${this.name}: restart failed (${errText(e)}); retrying`);
        this.scheduleRestart(this.consumer ?? old);
      }
    }, this.tuning.retryInitialMs * 5);
  }

  private async eachBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const topic = this.naming.streamOf(batch.topic);
    const partition = batch.partition;
    const messages = batch.messages;
    for (let i = 0; i < messages.length; i += this.maxBatch) {
      if (this.stopping || !isRunning() || isStale()) return;
      const chunk = messages.slice(i, i + this.maxBatch);
      const events: LogPosition[] = this.options.encoded
        ? chunk.map((m) => this.codec.encoded(topic, partition, Number(m.offset), m))
        : chunk.map((m) => this.codec.decode(topic, partition, Number(m.offset), m));
      const done = await this.deliver(events, heartbeat, () => this.stopping || !isRunning() || isStale());
      if (!done) return; // stopping or rebalanced: the chunk stays uncommitted, it comes again
      const last = chunk[chunk.length - 1].offset;
      resolveOffset(last);
      await this.consumer!.commitOffsets([{ topic: batch.topic, partition, offset: String(Number(last) + 1) }]);
      await heartbeat();
    }
  }

  /** The handler until it resolves (true), or until aborted (false). */
  private async deliver(events: LogPosition[], heartbeat: () => Promise<void>, aborted: () => boolean): Promise<boolean> {
    const first = events[0];
    const handler = positionsHandler(this.options);
    try {
      await retry(
        async (attempt) => {
          if (attempt > 1 && aborted()) throw new Error('aborted');
          await handler(events);
          if (attempt > 1) this.logger.log(`${this.name}: handler succeeded after ${attempt} attempts`);
        },
        { baseMs: this.tuning.retryInitialMs, maxMs: this.tuning.retryMaxMs },
        {
          stopped: aborted,
          onFailure: (e, attempt, delay) =>
            this.logger.error(
              `${this.name}: handler failed on ${first.topic}/${first.partition}@${first.offset}..${events[events.length - 1].offset} ` +
                `(attempt ${attempt}): ${errText(e)}; retrying in ${delay} ms`,
            ),
          sleep: (ms) => this.waitHeartbeating(ms, heartbeat, aborted),
        },
      );
      return true;
    } catch {
      return false; // aborted: the batch stays uncommitted
    }
  }

  /** Waits `ms`, heartbeating so the group keeps the partition, waking early on stop(). */
  private async waitHeartbeating(ms: number, heartbeat: () => Promise<void>, aborted: () => boolean): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (aborted()) return;
      await new Promise<void>((r) => {
        const wake = () => {
          clearTimeout(t);
          this.wakers.delete(wake);
          r();
        };
        const t = setTimeout(wake, Math.min(1_000, until - Date.now()));
        this.wakers.add(wake);
      });
      if (aborted()) return;
      await heartbeat();
    }
  }

  stop(): Promise<void> {
    if (!this.stopped) {
      this.stopping = true;
      if (this.restartTimer) clearTimeout(this.restartTimer);
      for (const wake of [...this.wakers]) wake();
      const consumer = this.consumer;
      // kafkajs' stop() waits for the batch being processed, disconnect() leaves the group.
      this.stopped = (async () => {
        try {
          await consumer?.stop();
        } finally {
          await consumer?.disconnect().catch(() => undefined);
          this.onStopped();
        }
      })();
    }
    return this.stopped;
  }
}

/** Deletes a group's committed offsets (`startFrom: 'beginning'`); a group that never
 * existed is fine, one with running members is refused. */
export async function forgetGroup(admin: Admin, group: string, logger: KafkaEventLogLogger): Promise<void> {
  try {
    await admin.deleteGroups([group]);
    logger.log(`consumer group ${group}: committed offsets deleted (startFrom=beginning)`);
  } catch (e: any) {
    const results: any[] = e?.groups ?? [];
    const types = results.map((g) => g?.error?.type ?? g?.errorCode).filter(Boolean);
    if (types.length && types.every((t) => t === 'GROUP_ID_NOT_FOUND' || t === 69)) return; // never existed
    if (types.includes('NON_EMPTY_GROUP') || types.includes(68)) {
      throw new Error(`startFrom=beginning: consumer group ${group} has running members; stop them or use a new group`);
    }
    throw e;
  }
}
