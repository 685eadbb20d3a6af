import {
  Admin,
  Consumer,
  EachBatchPayload,
  ITopicConfig,
  Kafka,
  KafkaMessage,
  logLevel as KafkaLogLevel,
  LogEntry,
  Partitioners,
  Producer,
  RecordMetadata,
} from 'kafkajs';
import { EventEnvelope, Topic, TOPICS } from '@cds/events';
import { EventLog, LogPosition, StoredEvent, SubscribeOptions, Subscription } from '../event-log.port';
import { PartitionReader, RawRecord } from './kafka-partition-reader';

/** What the adapter logs through (a Nest `Logger` fits). */
export interface KafkaEventLogLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug?(message: string): void;
}

export interface KafkaEventLogOptions {
  /** `host:port` of one or more brokers. */
  brokers: string[];
  clientId: string;
  /** Topic names are `<topicPrefix>.<stream>`, e.g. `cds.decisions`. */
  topicPrefix: string;
  /** Partitions of each topic when this adapter creates it (default 3). Existing topics keep theirs. */
  partitions?: number;
  /** Replicas of each topic when this adapter creates it (default 1: a single broker). */
  replicationFactor?: number;
  /** `min.insync.replicas` of created topics (default: 2 when replicationFactor >= 3, else 1). */
  minInSyncReplicas?: number;
  /** `max.message.bytes` of created topics (default 8 MiB). */
  maxMessageBytes?: number;
  logger?: KafkaEventLogLogger;
  /** Lowest kafkajs log level passed to `logger` (default 'warn'). */
  clientLogLevel?: 'error' | 'warn' | 'info' | 'debug';
  /** How long `append` waits for the acknowledgement of all in-sync replicas before it
   * rejects (default 30 s). A rejected append whose events were already handed to the
   * broker may still land; one still queued is withdrawn and never lands. */
  appendTimeoutMs?: number;
  /** Extra time to gather concurrent appends into one produce request (default 0: the
   * appends of the same tick, plus everything queued while a request is in flight). */
  lingerMs?: number;
  /** Caps of one produce request (defaults 5,000 events / 1 MiB; one append is never split). */
  maxBatchEvents?: number;
  maxBatchBytes?: number;
  /** Give up `connect()` after this long (default: never, it retries with backoff). */
  connectTimeoutMs?: number;
  /** Backoff: first delay (default 200 ms) and cap (default 30 s) of a failing
   * subscription handler; reconnects and resends use the same first delay, capped at 5 s
   * and 2 s so the log resumes promptly once the broker is back. */
  retryInitialMs?: number;
  retryMaxMs?: number;
  /** Consumer group session timeout (default 30 s). */
  sessionTimeoutMs?: number;
}

/** Thrown by `append` when the events were not acknowledged in time. */
export class EventLogAppendError extends Error {
  constructor(
    message: string,
    /** false: the events were never sent and will not land. true: they may have landed. */
    readonly maybeAppended: boolean,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'EventLogAppendError';
  }
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

const CONSOLE_LOGGER: KafkaEventLogLogger = {
  log: (m) => console.log(`[EventLog] ${m}`),
  warn: (m) => console.warn(`[EventLog] ${m}`),
  error: (m) => console.error(`[EventLog] ${m}`),
};

const LEVELS = { error: KafkaLogLevel.ERROR, warn: KafkaLogLevel.WARN, info: KafkaLogLevel.INFO, debug: KafkaLogLevel.DEBUG };

/** Producer errors after which kafkajs' idempotence state is unusable: the request was
 * refused (nothing written), so a fresh producer (new producer id) may send it again. */
const PRODUCER_STATE_ERRORS = new Set(['OUT_OF_ORDER_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID', 'INVALID_PRODUCER_EPOCH', 'INVALID_PRODUCER_ID_MAPPING']);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const errText = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

/**
 * The event log on Apache Kafka (kafkajs).
 *
 * - One topic per stream of TOPICS, `<prefix>.<stream>`, created by `connect()` with
 *   unlimited retention (`retention.ms=-1`, `retention.bytes=-1`, delete policy, never
 *   compacted: the log is the source of truth).
 * - Writes: an idempotent producer (`acks=-1`, i.e. all in-sync replicas;
 *   `maxInFlightRequests: 1`; kafkajs retries forever, bounded for the caller by
 *   `appendTimeoutMs`). Messages are keyed by `event.key`; the adapter picks the partition
 *   itself with Kafka's default (murmur2) partitioner, so it knows where every event goes,
 *   and returns exact offsets: `baseOffset` of the partition's record batch + the event's
 *   index within that partition in the request. Concurrent appends are coalesced into one
 *   `sendBatch`; one request is in flight at a time (what the idempotent producer needs
 *   to keep its sequence numbers in order) and everything queued meanwhile goes in the next.
 * - Subscriptions: a consumer group per `group`, `eachBatch` without auto-resolve or
 *   auto-commit; the offset of a chunk is committed only after the handler resolved;
 *   a throwing handler gets the same chunk again, with backoff, forever (never skipped).
 * - `read()`: a group-less Fetch to the partition leader (see PartitionReader).
 */
export class KafkaEventLog implements EventLog {
  private readonly kafka: Kafka;
  private readonly logger: KafkaEventLogLogger;
  private readonly o: Required<Omit<KafkaEventLogOptions, 'logger' | 'connectTimeoutMs' | 'minInSyncReplicas' | 'clientLogLevel'>> & {
    connectTimeoutMs?: number;
    minInSyncReplicas: number;
  };

  private admin: Admin | null = null;
  private probeAdmin: Admin | null = null;
  private producer: Producer | null = null;
  private reader: PartitionReader | null = null;
  private connecting: Promise<void> | null = null;
  private connected = false;
  private closed = false;
  private readonly partitionCounts = new Map<Topic, number>();
  private readonly partitioner = Partitioners.DefaultPartitioner();
  private readonly subscriptions = new Set<KafkaSubscription>();
  private readonly wakers = new Set<() => void>();

  private readonly queue: PendingAppend[] = [];
  private sending = false;
  private flushScheduled = false;
  private producerFailing = false;

  constructor(options: KafkaEventLogOptions) {
    if (!options.brokers?.length) throw new Error('KafkaEventLog: brokers is empty');
    if (!/^[A-Za-z0-9._-]+$/.test(options.topicPrefix)) throw new Error(`KafkaEventLog: invalid topicPrefix "${options.topicPrefix}"`);
    this.logger = options.logger ?? CONSOLE_LOGGER;
    const rf = options.replicationFactor ?? 1;
    this.o = {
      brokers: options.brokers,
      clientId: options.clientId,
      topicPrefix: options.topicPrefix,
      partitions: options.partitions ?? 3,
      replicationFactor: rf,
      minInSyncReplicas: options.minInSyncReplicas ?? (rf >= 3 ? 2 : 1),
      maxMessageBytes: options.maxMessageBytes ?? 8 * 1024 * 1024,
      appendTimeoutMs: options.appendTimeoutMs ?? 30_000,
      lingerMs: options.lingerMs ?? 0,
      maxBatchEvents: options.maxBatchEvents ?? 5_000,
      maxBatchBytes: options.maxBatchBytes ?? 1024 * 1024,
      connectTimeoutMs: options.connectTimeoutMs,
      retryInitialMs: options.retryInitialMs ?? 200,
      retryMaxMs: options.retryMaxMs ?? 30_000,
      sessionTimeoutMs: options.sessionTimeoutMs ?? 30_000,
    };
    const min = LEVELS[options.clientLogLevel ?? 'warn'];
    const logger = this.logger;
    // kafkajs repeats the same complaint many times a second while a broker is away:
    // each distinct message is passed on at most once per 5 s, with a count of the rest.
    const recent = new Map<string, { at: number; suppressed: number }>();
    const emit = (level: KafkaLogLevel, text: string) => {
      if (level <= KafkaLogLevel.ERROR) logger.error(text);
      else if (level === KafkaLogLevel.WARN) logger.warn(text);
      else if (level === KafkaLogLevel.INFO) logger.log(text);
      else logger.debug?.(text);
    };
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      connectionTimeout: 3_000,
      requestTimeout: 30_000,
      // Client-level retries stay short: an attempt to reach a dead broker fails in ~2 s and
      // the adapter's own loops (connect, producer, consumer restarts) do the long backoff.
      retry: { initialRetryTime: 100, maxRetryTime: 1_000, retries: 3 },
      logLevel: min,
      logCreator:
        () =>
        ({ level, log }: LogEntry) => {
          const { message, error, broker } = log as { message: string; error?: string; broker?: string };
          const text = `kafkajs: ${message}${error ? ` (${error})` : ''}${broker ? ` [${broker}]` : ''}`;
          const now = Date.now();
          const seen = recent.get(text);
          if (seen && now - seen.at < 5_000) {
            seen.suppressed++;
            return;
          }
          recent.set(text, { at: now, suppressed: 0 });
          if (recent.size > 200) for (const [k, v] of recent) if (now - v.at >= 5_000) recent.delete(k);
          emit(level, seen?.suppressed ? `${text} (+${seen.suppressed} more in the last ${Math.round((now - seen.at) / 1000)} s)` : text);
        },
    });
  }

  /** Construct and connect (waits until the broker is reachable and topics exist). */
  static async open(options: KafkaEventLogOptions): Promise<KafkaEventLog> {
    const log = new KafkaEventLog(options);
    await log.connect();
    return log;
  }

  /** The Kafka topic of a stream. */
  topicName(topic: Topic): string {
    return `${this.o.topicPrefix}.${topic}`;
  }

  /** The Kafka consumer group of a subscription group: `<prefix>.<group>`, so logs with
   * different prefixes on one cluster never share a group (nor its members and offsets). */
  groupName(group: string): string {
    return `${this.o.topicPrefix}.${group}`;
  }

  /** @internal The stream of a Kafka topic name of this log. */
  streamOf(kafkaTopic: string): Topic {
    const t = kafkaTopic.slice(this.o.topicPrefix.length + 1) as Topic;
    if (!TOPICS.includes(t)) throw new Error(`not a topic of this log: ${kafkaTopic}`);
    return t;
  }

  /**
   * Connects the admin client and the producer, creates the missing topics and learns
   * their partition counts. While the broker is unreachable it retries with exponential
   * backoff (logging each failure) until it succeeds, `close()` is called, or
   * `connectTimeoutMs` passes. Concurrent calls share one attempt; every other method
   * calls it implicitly, so `void log.connect()` gives a non-blocking start whose
   * progress `healthy()` reports.
   */
  connect(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('KafkaEventLog is closed'));
    if (this.connected) return Promise.resolve();
    if (!this.connecting) {
      this.connecting = this.connectLoop().finally(() => {
        this.connecting = null;
      });
    }
    return this.connecting;
  }

  private async connectLoop(): Promise<void> {
    const started = Date.now();
    let delay = this.o.retryInitialMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.connectOnce();
        this.connected = true;
        this.logger.log(`connected to Kafka ${this.o.brokers.join(',')}${attempt > 1 ? ` after ${attempt} attempts` : ''}`);
        return;
      } catch (e) {
        if (this.closed) throw new Error('KafkaEventLog closed while connecting');
        const elapsed = Date.now() - started;
        if (this.o.connectTimeoutMs !== undefined && elapsed + delay > this.o.connectTimeoutMs) {
          throw new Error(`Kafka ${this.o.brokers.join(',')} unreachable for ${elapsed} ms: ${errText(e)}`);
        }
        this.logger.warn(`Kafka ${this.o.brokers.join(',')} not usable (attempt ${attempt}): ${errText(e)}; retrying in ${delay} ms`);
        await this.pause(delay);
        delay = Math.min(this.o.retryMaxMs, 5_000, delay * 2);
      }
    }
  }

  /** Sleeps, or less when close() is called. */
  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  /** Connects fresh clients; they replace the current ones only if all of them connected. */
  private async connectOnce(): Promise<void> {
    const admin = this.kafka.admin({ retry: { retries: 2, initialRetryTime: 200, maxRetryTime: 2_000 } });
    const probeAdmin = this.kafka.admin({ retry: { retries: 0 } });
    const producer = this.createProducer();
    const reader = new PartitionReader(this.kafka);
    const clients = [admin, probeAdmin, producer, reader];
    try {
      await admin.connect();
      await this.ensureTopics(admin);
      await probeAdmin.connect();
      await producer.connect();
      await reader.connect();
      if (this.closed) throw new Error('closed');
    } catch (e) {
      await Promise.all(clients.map((c) => c.disconnect().catch(() => undefined)));
      throw e;
    }
    Object.assign(this, { admin, probeAdmin, producer, reader });
  }

  private async resetProducer(): Promise<void> {
    const old = this.producer;
    this.producer = this.createProducer();
    await old?.disconnect().catch(() => undefined);
    await this.producer.connect().catch(() => undefined); // else the next send connects
  }

  private createProducer(): Producer {
    return this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      // Infinite retries (what the idempotent producer needs to keep its exactly-once
      // promise); the caller's wait is bounded by appendTimeoutMs instead.
      retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 100, maxRetryTime: 2_000 },
    });
  }

  private async ensureTopics(admin: Admin): Promise<void> {
    const existing = new Set(await admin.listTopics());
    const missing: ITopicConfig[] = TOPICS.filter((t) => !existing.has(this.topicName(t))).map((t) => ({
      topic: this.topicName(t),
      numPartitions: this.o.partitions,
      replicationFactor: this.o.replicationFactor,
      configEntries: [
        { name: 'retention.ms', value: '-1' },
        { name: 'retention.bytes', value: '-1' },
        { name: 'cleanup.policy', value: 'delete' },
        { name: 'min.insync.replicas', value: String(this.o.minInSyncReplicas) },
        { name: 'max.message.bytes', value: String(this.o.maxMessageBytes) },
        { name: 'unclean.leader.election.enable', value: 'false' },
      ],
    }));
    if (missing.length) {
      try {
        await admin.createTopics({ topics: missing, waitForLeaders: true, timeout: 30_000 });
        this.logger.log(
          `created topics ${missing.map((t) => t.topic).join(', ')} (${this.o.partitions} partitions, replication ${this.o.replicationFactor}, unlimited retention)`,
        );
      } catch (e: any) {
        // Another process may have created them concurrently.
        if (e?.type !== 'TOPIC_ALREADY_EXISTS' && !/already exists/i.test(String(e?.message))) throw e;
      }
    }
    const kept = TOPICS.map((t) => this.topicName(t)).filter((t) => existing.has(t));
    if (kept.length) {
      // Topics made by someone else: say so if they would ever drop events.
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: kept.map((name) => ({ type: 2 /* TOPIC */, name, configNames: ['retention.ms', 'retention.bytes', 'cleanup.policy'] })),
      });
      for (const r of resources) {
        const c = Object.fromEntries(r.configEntries.map((e) => [e.configName, e.configValue]));
        if (c['retention.ms'] !== '-1' || (c['retention.bytes'] ?? '-1') !== '-1' || c['cleanup.policy'] !== 'delete') {
          this.logger.warn(
            `topic ${r.resourceName} may lose events: retention.ms=${c['retention.ms']} retention.bytes=${c['retention.bytes']} cleanup.policy=${c['cleanup.policy']} (expected -1, -1, delete)`,
          );
        }
      }
    }
    const meta = await admin.fetchTopicMetadata({ topics: TOPICS.map((t) => this.topicName(t)) });
    for (const tm of meta.topics) {
      const stream = this.streamOf(tm.name);
      this.partitionCounts.set(stream, tm.partitions.length);
      if (tm.partitions.some((p) => p.leader < 0)) throw new Error(`topic ${tm.name} has partitions without a leader`);
    }
  }

  private async disconnectClients(): Promise<void> {
    const clients = [this.producer, this.admin, this.probeAdmin, this.reader];
    this.producer = this.admin = this.probeAdmin = null;
    this.reader = null;
    this.connected = false;
    await Promise.all(clients.map((c) => c?.disconnect().catch(() => undefined)));
  }

  // ------------------------------------------------------------------------ append

  partitionFor(topic: Topic, key: string): number {
    const n = this.partitionCounts.get(topic);
    if (!n) throw new Error(`partition count of ${topic} unknown (not connected)`);
    const partitionMetadata = Array.from({ length: n }, (_, i) => ({ partitionId: i, leader: 0, replicas: [0], isr: [0] }));
    return this.partitioner({ topic: this.topicName(topic), partitionMetadata: partitionMetadata as any, message: { key, value: null } });
  }

  append(topic: Topic, events: EventEnvelope[]): Promise<LogPosition[]> {
    if (!TOPICS.includes(topic)) return Promise.reject(new TypeError(`unknown topic ${topic}`));
    if (!events.length) return Promise.resolve([]);
    if (this.closed) return Promise.reject(new EventLogAppendError('event log is closed', false));
    let values: string[];
    try {
      values = events.map((e) => {
        if (typeof e !== 'object' || e === null || typeof e.id !== 'string' || typeof e.key !== 'string' || !e.key) {
          throw new TypeError('an event needs a string id and a non-empty string key');
        }
        return JSON.stringify(e);
      });
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise<LogPosition[]>((resolve, reject) => {
      const pending: PendingAppend = {
        topic,
        // partitions are assigned when sent (the partition count is known once connected)
        messages: events.map((e, i) => ({ partition: -1, key: e.key, value: values[i] })),
        bytes: values.reduce((n, v) => n + Buffer.byteLength(v) + 64, 0),
        state: 'queued',
        resolve,
        reject,
      };
      pending.timer = setTimeout(() => this.expire(pending), this.o.appendTimeoutMs);
      this.queue.push(pending);
      this.scheduleFlush();
    });
  }

  private expire(p: PendingAppend): void {
    if (p.state === 'queued') {
      const i = this.queue.indexOf(p);
      if (i >= 0) this.queue.splice(i, 1);
      p.state = 'settled';
      p.reject(new EventLogAppendError(`Kafka did not become available within ${this.o.appendTimeoutMs} ms; the events were not appended`, false));
    } else if (p.state === 'sending') {
      p.state = 'settled';
      p.reject(new EventLogAppendError(`no acknowledgement from Kafka within ${this.o.appendTimeoutMs} ms; the events may still be appended`, true));
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
    if (this.o.lingerMs > 0) setTimeout(run, this.o.lingerMs);
    else setImmediate(run);
  }

  /** Takes whole appends from the queue up to the batch caps (always at least one). */
  private takeBatch(): PendingAppend[] {
    const batch: PendingAppend[] = [];
    let events = 0;
    let bytes = 0;
    while (this.queue.length) {
      const next = this.queue[0];
      if (batch.length && (events + next.messages.length > this.o.maxBatchEvents || bytes + next.bytes > this.o.maxBatchBytes)) break;
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
      while (this.queue.length && !this.closed) {
        try {
          await this.connect();
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
      if (this.queue.length && !this.closed) this.scheduleFlush();
    }
  }

  private async sendBatch(batch: PendingAppend[]): Promise<void> {
    const byTopic = new Map<string, OutMessage[]>();
    for (const p of batch) {
      p.state = 'sending';
      const name = this.topicName(p.topic);
      const list = byTopic.get(name) ?? [];
      for (const m of p.messages) {
        m.partition = this.partitionFor(p.topic, m.key);
        list.push(m);
      }
      byTopic.set(name, list);
    }
    const topicMessages = [...byTopic].map(([topic, messages]) => ({ topic, messages }));
    const count = topicMessages.reduce((n, t) => n + t.messages.length, 0);
    let metadata: RecordMetadata[];
    let delay = this.o.retryInitialMs;
    for (let attempt = 1; ; attempt++) {
      if (batch.every((p) => p.state === 'settled')) {
        // Every caller gave up (appendTimeoutMs). An earlier attempt may have landed, so the
        // producer's sequence numbers must not be reused for other events: start afresh.
        this.logger.error(`gave up resending ${count} event(s) after ${attempt - 1} attempt(s); their callers were told they may have been appended`);
        await this.resetProducer();
        return;
      }
      try {
        const producer = this.producer;
        if (!producer) throw new Error('producer not connected');
        metadata = await producer.sendBatch({ acks: -1, timeout: 30_000, topicMessages });
        if (this.producerFailing) {
          this.producerFailing = false;
          this.logger.log('Kafka acknowledges writes again');
        }
        break;
      } catch (e: any) {
        if (this.closed) {
          for (const p of batch) this.settle(p, null, new EventLogAppendError(`event log closed during append: ${errText(e)}`, true, e));
          return;
        }
        if (PRODUCER_STATE_ERRORS.has(e?.type)) {
          // Refused before anything was written: resend with a fresh producer id.
          this.logger.warn(`producer state lost (${e.type}); recreating the idempotent producer and resending`);
          await this.resetProducer();
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
        if (!this.producerFailing || attempt === 1) {
          this.logger.warn(`append of ${count} event(s) not acknowledged yet (${errText(e)}); resending in ${delay} ms`);
        }
        this.producerFailing = true;
        await this.pause(delay);
        delay = Math.min(this.o.retryMaxMs, 2_000, delay * 2);
      }
    }
    // Offsets: each partition's messages of this request form one record batch, written
    // at baseOffset in request order.
    const next = new Map<string, number>();
    for (const m of metadata) next.set(`${m.topicName}\u0000${m.partition}`, Number(m.baseOffset));
    for (const p of batch) {
      const name = this.topicName(p.topic);
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

  // -------------------------------------------------------------------------- read

  async read(topic: Topic, partition: number, fromOffset: number, max: number): Promise<StoredEvent[]> {
    if (!TOPICS.includes(topic)) throw new TypeError(`unknown topic ${topic}`);
    if (!Number.isInteger(fromOffset) || fromOffset < 0) throw new RangeError(`invalid offset ${fromOffset}`);
    if (max <= 0) return [];
    await this.connect();
    const name = this.topicName(topic);
    const out: StoredEvent[] = [];
    let offset = fromOffset;
    while (out.length < max) {
      const reader = this.reader;
      if (!reader) throw new Error('Kafka reader not connected');
      const { records, highWatermark } = await reader.fetch(name, partition, offset, 4 * 1024 * 1024);
      if (highWatermark < 0) {
        // OFFSET_OUT_OF_RANGE: past the end is simply nothing yet; before the start is an error.
        const low = await this.lowOffset(topic, partition);
        if (offset < low) throw new RangeError(`${name}/${partition}: offset ${offset} is before the log start ${low}`);
        break;
      }
      let advanced = false;
      for (const r of records) {
        const o = Number(r.offset);
        if (o < offset || r.isControlRecord) continue;
        out.push(this.decode(topic, partition, o, r));
        offset = o + 1;
        advanced = true;
        if (out.length >= max) break;
      }
      if (!advanced || offset >= highWatermark) break;
    }
    return out;
  }

  private async lowOffset(topic: Topic, partition: number): Promise<number> {
    await this.connect();
    const offsets = await this.admin!.fetchTopicOffsets(this.topicName(topic));
    const p = offsets.find((x) => x.partition === partition);
    if (!p) throw new RangeError(`partition ${partition} does not exist in ${this.topicName(topic)}`);
    return Number(p.low);
  }

  /** @internal A record's value as an envelope. A value that is not JSON is delivered as a
   * stand-in of type `event-log.unreadable` (so schema checks above park it, with its
   * position) rather than blocking the partition forever. */
  decode(topic: Topic, partition: number, offset: number, r: RawRecord | KafkaMessage): StoredEvent {
    const text = r.value ? r.value.toString('utf8') : '';
    try {
      const event = JSON.parse(text) as EventEnvelope;
      if (typeof event !== 'object' || event === null) throw new Error('not an object');
      return { topic, partition, offset, event };
    } catch (e) {
      this.logger.error(`${this.topicName(topic)}/${partition}@${offset}: value is not a JSON envelope (${errText(e)})`);
      const key = r.key ? r.key.toString('utf8') : '';
      return {
        topic,
        partition,
        offset,
        event: {
          id: `unreadable:${this.topicName(topic)}:${partition}:${offset}`,
          type: 'event-log.unreadable',
          version: 0,
          occurredAt: new Date(0).toISOString(),
          tenantId: '',
          key,
          data: { raw: text.slice(0, 1024), error: errText(e) },
        },
      };
    }
  }

  // -------------------------------------------------------------------- endOffsets

  async endOffsets(topic: Topic): Promise<Map<number, number>> {
    if (!TOPICS.includes(topic)) throw new TypeError(`unknown topic ${topic}`);
    await this.connect();
    const offsets = await this.admin!.fetchTopicOffsets(this.topicName(topic));
    return new Map(offsets.map((p) => [p.partition, Number(p.high)]));
  }

  // ----------------------------------------------------------------------- health

  /** Connected, and the broker answers a metadata request within 3 s. */
  async healthy(): Promise<boolean> {
    if (!this.connected || !this.probeAdmin || this.closed) return false;
    const probe = this.probeAdmin.describeCluster().then(
      (c) => c.brokers.length > 0,
      () => false,
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 3_000)));
    try {
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  // -------------------------------------------------------------------- subscribe

  /**
   * A consumer group `<prefix>.<options.group>` over the given streams.
   * - `startFrom: 'committed'`: resume at the group's committed offsets; a group without
   *   any starts at the beginning of each partition (Kafka `fromBeginning`).
   * - `startFrom: 'beginning'`: the group's committed offsets are deleted first
   *   (`deleteGroups`), so it starts at offset 0 whatever it had committed. This needs
   *   the group to have no running member (Kafka refuses otherwise, and so does this
   *   call); use a fresh group name for a parallel replay.
   * Offsets are committed after every handler call that resolved (per chunk of at most
   * `maxBatch` events of one partition); a handler that throws gets the same chunk again
   * after a backoff (200 ms doubling to 30 s), heartbeating meanwhile. Delivery is
   * at-least-once: after a crash, a rebalance or a failed commit, the uncommitted chunk
   * comes again, so the handler must be idempotent.
   */
  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    if (!options.topics.length) throw new Error('subscribe: no topics');
    for (const t of options.topics) if (!TOPICS.includes(t)) throw new TypeError(`unknown topic ${t}`);
    await this.connect();
    if ((options.startFrom ?? 'committed') === 'beginning') await this.forgetGroup(this.groupName(options.group));
    const sub = new KafkaSubscription(this, this.kafka, this.logger, options, {
      sessionTimeoutMs: this.o.sessionTimeoutMs,
      retryInitialMs: this.o.retryInitialMs,
      retryMaxMs: this.o.retryMaxMs,
    });
    this.subscriptions.add(sub);
    sub.onStopped = () => this.subscriptions.delete(sub);
    await sub.start();
    return sub;
  }

  private async forgetGroup(group: string): Promise<void> {
    try {
      await this.admin!.deleteGroups([group]);
      this.logger.log(`consumer group ${group}: committed offsets deleted (startFrom=beginning)`);
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

  // ------------------------------------------------------------------------ close

  async close(): Promise<void> {
    if (this.closed) return;
    // Let what is queued or in flight finish (bounded by appendTimeoutMs), then stop.
    const deadline = Date.now() + this.o.appendTimeoutMs;
    while ((this.queue.length || this.sending) && this.connected && Date.now() < deadline) await sleep(10);
    this.closed = true;
    for (const wake of this.wakers) wake();
    this.wakers.clear();
    await this.connecting?.catch(() => undefined);
    for (const p of this.queue.splice(0)) this.settle(p, null, new EventLogAppendError('event log closed', false));
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.disconnectClients();
  }
}

interface SubscriptionTuning {
  sessionTimeoutMs: number;
  retryInitialMs: number;
  retryMaxMs: number;
}

/** One consumer group member; restarts its consumer if kafkajs gives up on it. */
class KafkaSubscription implements Subscription {
  onStopped: () => void = () => undefined;
  private consumer: Consumer | null = null;
  private stopping = false;
  private stopped: Promise<void> | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  /** Handlers waiting out a retry backoff (several with concurrent partitions). */
  private readonly wakers = new Set<() => void>();
  private readonly maxBatch: number;

  constructor(
    private readonly log: KafkaEventLog,
    private readonly kafka: Kafka,
    private readonly logger: KafkaEventLogLogger,
    private readonly options: SubscribeOptions,
    private readonly tuning: SubscriptionTuning,
  ) {
    this.maxBatch = Math.max(1, options.maxBatch ?? 500);
  }

  private get name(): string {
    return `consumer group ${this.log.groupName(this.options.group)}`;
  }

  async start(): Promise<void> {
    const consumer = this.kafka.consumer({
      groupId: this.log.groupName(this.options.group),
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
    await consumer.subscribe({ topics: this.options.topics.map((t) => this.log.topicName(t)), fromBeginning: true });
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
    const topic = this.log.streamOf(batch.topic);
    const partition = batch.partition;
    const messages = batch.messages;
    for (let i = 0; i < messages.length; i += this.maxBatch) {
      if (this.stopping || !isRunning() || isStale()) return;
      const chunk = messages.slice(i, i + this.maxBatch);
      const events = chunk.map((m) => this.log.decode(topic, partition, Number(m.offset), m));
      const done = await this.deliver(events, heartbeat, () => this.stopping || !isRunning() || isStale());
      if (!done) return; // stopping or rebalanced: the chunk stays uncommitted, it comes again
      const last = chunk[chunk.length - 1].offset;
      resolveOffset(last);
      await this.consumer!.commitOffsets([{ topic: batch.topic, partition, offset: String(Number(last) + 1) }]);
      await heartbeat();
    }
  }

  /** The handler until it resolves (true), or until aborted (false). */
  private async deliver(events: StoredEvent[], heartbeat: () => Promise<void>, aborted: () => boolean): Promise<boolean> {
    let delay = this.tuning.retryInitialMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.options.handler(events);
        if (attempt > 1) this.logger.log(`${this.name}: handler succeeded after ${attempt} attempts`);
        return true;
      } catch (e) {
        const first = events[0];
        this.logger.error(
          `${this.name}: handler failed on ${first.topic}/${first.partition}@${first.offset}..${events[events.length - 1].offset} ` +
            `(attempt ${attempt}): ${errText(e)}; retrying in ${delay} ms`,
        );
      }
      // Wait, heartbeating so the group keeps the partition, waking early on stop().
      const until = Date.now() + delay;
      while (Date.now() < until) {
        if (aborted()) return false;
        await new Promise<void>((r) => {
          const wake = () => {
            clearTimeout(t);
            this.wakers.delete(wake);
            r();
          };
          const t = setTimeout(wake, Math.min(1_000, until - Date.now()));
          this.wakers.add(wake);
        });
        if (aborted()) return false;
        await heartbeat();
      }
      delay = Math.min(this.tuning.retryMaxMs, delay * 2);
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
