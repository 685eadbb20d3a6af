import { Partitioners, RecordMetadata } from 'kafkajs';
import { backoffDelay } from '@cds/backoff';
import { EventEnvelope, Topic } from '@cds/events';
import { EventLogAppendError, LogPosition } from '../event-log.port';
import { KafkaConnection } from './kafka-connection';
import { KafkaEventLogLogger } from './kafka-event-log.options';
import { errText } from './kafka-logging';
import { KafkaNaming } from './kafka-naming';
import { KafkaRecordCodec } from './kafka-record-codec';

export interface AppendBatcherSettings {
  appendTimeoutMs: number;
  lingerMs: number;
  maxBatchEvents: number;
  maxBatchBytes: number;
  retryInitialMs: number;
  retryMaxMs: number;
}

interface OutMessage {
  partition: number;
  key: string;
  value: string;
}

interface PendingAppend {
  topic: Topic;
  messages: OutMessage[];
  bytes: number;
  state: 'queued' | 'sending' | 'settled';
  resolve(positions: LogPosition[]): void;
  reject(error: unknown): void;
  timer?: NodeJS.Timeout;
}

/** Producer errors after which kafkajs' idempotence state is unusable: the request was
 * refused (nothing written), so a fresh producer (new producer id) may send it again. */
const PRODUCER_STATE_ERRORS = new Set(['OUT_OF_ORDER_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID', 'INVALID_PRODUCER_EPOCH', 'INVALID_PRODUCER_ID_MAPPING']);

/** Resends use the first delay of the other retries, capped lower (2 s) so appends go
 * through promptly once the broker is back. */
const RESEND_MAX_MS = 2_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The write path on the idempotent producer (`acks=-1`, i.e. all in-sync replicas;
 * `maxInFlightRequests: 1`; kafkajs retries forever, bounded for the caller by
 * `appendTimeoutMs`). Messages are keyed by `event.key`; the batcher picks the partition
 * itself with Kafka's default (murmur2) partitioner, so it knows where every event goes,
 * and returns exact offsets: `baseOffset` of the partition's record batch + the event's
 * index within that partition in the request. Concurrent appends are coalesced into one
 * `sendBatch`; one request is in flight at a time (what the idempotent producer needs
 * to keep its sequence numbers in order) and everything queued meanwhile goes in the next.
 */
export class KafkaAppendBatcher {
  private readonly partitioner = Partitioners.DefaultPartitioner();
  private readonly queue: PendingAppend[] = [];
  private sending = false;
  private flushScheduled = false;
  private producerFailing = false;

  constructor(
    private readonly connection: KafkaConnection,
    private readonly naming: KafkaNaming,
    private readonly codec: KafkaRecordCodec,
    private readonly logger: KafkaEventLogLogger,
    private readonly settings: AppendBatcherSettings,
  ) {}

  partitionFor(topic: Topic, key: string): number {
    const n = this.connection.partitionCount(topic);
    if (!n) throw new Error(`partition count of ${topic} unknown (not connected)`);
    const partitionMetadata = Array.from({ length: n }, (_, i) => ({ partitionId: i, leader: 0, replicas: [0], isr: [0] }));
    return this.partitioner({ topic: this.naming.topicName(topic), partitionMetadata: partitionMetadata as any, message: { key, value: null } });
  }

  /** Queues the events for the next produce request; resolves with their positions. */
  append(topic: Topic, events: EventEnvelope[]): Promise<LogPosition[]> {
    let encoded: ReturnType<KafkaRecordCodec['encode']>;
    try {
      encoded = this.codec.encode(events);
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise<LogPosition[]>((resolve, reject) => {
      const pending: PendingAppend = {
        topic,
        // partitions are assigned when sent (the partition count is known once connected)
        messages: encoded.map(({ key, value }) => ({ partition: -1, key, value })),
        bytes: encoded.reduce((n, m) => n + Buffer.byteLength(m.value) + 64, 0),
        state: 'queued',
        resolve,
        reject,
      };
      pending.timer = setTimeout(() => this.expire(pending), this.settings.appendTimeoutMs);
      this.queue.push(pending);
      this.scheduleFlush();
    });
  }

  /** Lets what is queued or in flight finish, while connected, for at most `timeoutMs`. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((this.queue.length || this.sending) && this.connection.connected && Date.now() < deadline) await sleep(10);
  }

  /** Rejects everything still queued (never sent, so never appended). */
  abandonQueued(message: string): void {
    for (const p of this.queue.splice(0)) this.settle(p, null, new EventLogAppendError(message, false));
  }

  private expire(p: PendingAppend): void {
    const { appendTimeoutMs } = this.settings;
    if (p.state === 'queued') {
      const i = this.queue.indexOf(p);
      if (i >= 0) this.queue.splice(i, 1);
      p.state = 'settled';
      p.reject(new EventLogAppendError(`Kafka did not become available within ${appendTimeoutMs} ms; the events were not appended`, false));
    } else if (p.state === 'sending') {
      p.state = 'settled';
      p.reject(new EventLogAppendError(`no acknowledgement from Kafka within ${appendTimeoutMs} ms; the events may still be appended`, true));
    }
  }

  private settle(p: PendingAppend, ok: LogPosition[] | null, error?: unknown): void {
    if (p.timer) clearTimeout(p.timer);
    if (p.state === 'settled') return;
    p.state = 'settled';
    if (ok) p.resolve(ok);
    else p.reject(error);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.sending) return;
    this.flushScheduled = true;
    const run = () => {
      this.flushScheduled = false;
      void this.flush();
    };
    if (this.settings.lingerMs > 0) setTimeout(run, this.settings.lingerMs);
    else setImmediate(run);
  }

  /** Takes whole appends from the queue up to the batch caps (always at least one). */
  private takeBatch(): PendingAppend[] {
    const batch: PendingAppend[] = [];
    let events = 0;
    let bytes = 0;
    while (this.queue.length) {
      const next = this.queue[0];
      if (batch.length && (events + next.messages.length > this.settings.maxBatchEvents || bytes + next.bytes > this.settings.maxBatchBytes)) break;
      this.queue.shift();
      batch.push(next);
      events += next.messages.length;
      bytes += next.bytes;
    }
    return batch;
  }

  private async flush(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.queue.length && !this.connection.closed) {
        try {
          await this.connection.connect();
        } catch (e) {
          // closed, or connectTimeoutMs passed: nothing queued can be sent
          for (const p of this.queue.splice(0)) this.settle(p, null, new EventLogAppendError(`Kafka unavailable: ${errText(e)}`, false, e));
          return;
        }
        const batch = this.takeBatch();
        if (!batch.length) break;
        await this.sendBatch(batch);
      }
    } finally {
      this.sending = false;
      if (this.queue.length && !this.connection.closed) this.scheduleFlush();
    }
  }

  private async sendBatch(batch: PendingAppend[]): Promise<void> {
    const byTopic = new Map<string, OutMessage[]>();
    for (const p of batch) {
      p.state = 'sending';
      const name = this.naming.topicName(p.topic);
      const list = byTopic.get(name) ?? [];
      for (const m of p.messages) {
        m.partition = this.partitionFor(p.topic, m.key);
        list.push(m);
      }
      byTopic.set(name, list);
    }
    const topicMessages = [...byTopic].map(([topic, messages]) => ({ topic, messages }));
    const count = topicMessages.reduce((n, t) => n + t.messages.length, 0);
    const backoff = { baseMs: this.settings.retryInitialMs, maxMs: Math.min(this.settings.retryMaxMs, RESEND_MAX_MS) };
    let waits = 0;
    let metadata: RecordMetadata[];
    for (let attempt = 1; ; attempt++) {
      if (batch.every((p) => p.state === 'settled')) {
        // Every caller gave up (appendTimeoutMs). An earlier attempt may have landed, so the
        // producer's sequence numbers must not be reused for other events: start afresh.
        this.logger.error(`gave up resending ${count} event(s) after ${attempt - 1} attempt(s); their callers were told they may have been appended`);
        await this.connection.resetProducer();
        return;
      }
      try {
        const producer = this.connection.producer;
        if (!producer) throw new Error('producer not connected');
        metadata = await producer.sendBatch({ acks: -1, timeout: 30_000, topicMessages });
        if (this.producerFailing) {
          this.producerFailing = false;
          this.logger.log('Kafka acknowledges writes again');
        }
        break;
      } catch (e: any) {
        if (this.connection.closed) {
          for (const p of batch) this.settle(p, null, new EventLogAppendError(`event log closed during append: ${errText(e)}`, true, e));
          return;
        }
        if (PRODUCER_STATE_ERRORS.has(e?.type)) {
          // Refused before anything was written: resend with a fresh producer id.
          this.logger.warn(`producer state lost (${e.type}); recreating the idempotent producer and resending`);
          await this.connection.resetProducer();
          continue;
        }
        if (e?.name === 'KafkaJSProtocolError' && e.retriable === false) {
          // The broker refused the request itself (e.g. MESSAGE_TOO_LARGE): nothing of it
          // was written. Coalesced appends are isolated so one bad append fails alone.
          if (batch.length > 1) {
            for (const p of batch) {
              p.state = p.state === 'settled' ? 'settled' : 'queued';
              if (p.state === 'queued') await this.sendBatch([p]);
            }
            return;
          }
          this.logger.error(`append of ${count} event(s) refused by Kafka: ${errText(e)}`);
          for (const p of batch) this.settle(p, null, new EventLogAppendError(`Kafka refused the append: ${errText(e)}`, false, e));
          return;
        }
        // Connection lost, broker restarting, leader moving, timeout: resend the very same
        // batch with the same idempotent producer. Its sequence numbers make the broker
        // drop a copy that already landed and answer with the original offsets.
        const delay = backoffDelay(waits++, backoff);
        if (!this.producerFailing || attempt === 1) {
          this.logger.warn(`append of ${count} event(s) not acknowledged yet (${errText(e)}); resending in ${delay} ms`);
        }
        this.producerFailing = true;
        await this.connection.pause(delay);
      }
    }
    this.settleFromMetadata(batch, metadata);
  }

  /** Offsets: each partition's messages of the request form one record batch, written
   * at baseOffset in request order. */
  private settleFromMetadata(batch: PendingAppend[], metadata: RecordMetadata[]): void {
    const next = new Map<string, number>();
    for (const m of metadata) next.set(`${m.topicName}\u0000${m.partition}`, Number(m.baseOffset));
    for (const p of batch) {
      const name = this.naming.topicName(p.topic);
      const positions: LogPosition[] = [];
      let error: Error | null = null;
      for (const m of p.messages) {
        const k = `${name}\u0000${m.partition}`;
        const offset = next.get(k);
        if (offset === undefined || !Number.isFinite(offset)) {
          error = new Error(`no acknowledgement for ${name}/${m.partition} in the produce response`);
          break;
        }
        positions.push({ topic: p.topic, partition: m.partition, offset });
        next.set(k, offset + 1);
      }
      if (error) this.settle(p, null, new EventLogAppendError(error.message, true));
      else this.settle(p, positions);
    }
  }
}
