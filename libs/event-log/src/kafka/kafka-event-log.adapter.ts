import { Producer } from 'kafkajs';
import { EventEnvelope, Topic, TOPICS } from '@cds/events';
import { EncodedEvent, EventLog, EventLogAppendError, LogPosition, StoredEvent, SubscribeOptions, Subscription } from '../event-log.port';
import { KafkaAppendBatcher } from './kafka-append-batcher';
import { KafkaConnection } from './kafka-connection';
import { CONSOLE_LOGGER, KafkaEventLogLogger, KafkaEventLogOptions, KafkaSettings, kafkaSettings } from './kafka-event-log.options';
import { KafkaNaming } from './kafka-naming';
import { KafkaRecordCodec } from './kafka-record-codec';
import { RawRecord } from './kafka-partition-reader';
import { forgetGroup, KafkaSubscription } from './kafka-subscription';
import { retry } from '@cds/backoff';

/** Retries of a retriable offsets answer (beyond kafkajs's own), ~3 s in all. */
const OFFSET_RETRIES = 5;
const OFFSET_BACKOFF = { baseMs: 100, maxMs: 1_000 };

/**
 * The event log on Apache Kafka (kafkajs).
 *
 * - One topic per stream of TOPICS, `<prefix>.<stream>` (KafkaNaming), created by
 *   `connect()` with unlimited retention (KafkaConnection).
 * - Writes: coalesced into one `sendBatch` of the idempotent producer at a time, with
 *   exact offsets (KafkaAppendBatcher); the envelope is the message value as JSON, keyed
 *   by `event.key` (KafkaRecordCodec).
 * - Subscriptions: a consumer group per `group`; the offset of a chunk is committed only
 *   after the handler resolved (KafkaSubscription).
 * - `read()`: a group-less Fetch to the partition leader (see PartitionReader).
 */
export class KafkaEventLog implements EventLog {
  private readonly settings: KafkaSettings;
  private readonly logger: KafkaEventLogLogger;
  private readonly naming: KafkaNaming;
  private readonly codec: KafkaRecordCodec;
  private readonly connection: KafkaConnection;
  private readonly batcher: KafkaAppendBatcher;
  private readonly subscriptions = new Set<KafkaSubscription>();

  constructor(options: KafkaEventLogOptions) {
    if (!options.brokers?.length) throw new Error('KafkaEventLog: brokers is empty');
    this.naming = new KafkaNaming(options.topicPrefix);
    this.settings = kafkaSettings(options);
    this.logger = options.logger ?? CONSOLE_LOGGER;
    this.codec = new KafkaRecordCodec(this.naming, this.logger);
    this.connection = new KafkaConnection(this.settings, this.naming, this.logger);
    this.batcher = new KafkaAppendBatcher(this.connection, this.naming, this.codec, this.logger, this.settings);
  }

  /** Construct and connect (waits until the broker is reachable and topics exist). */
  static async open(options: KafkaEventLogOptions): Promise<KafkaEventLog> {
    const log = new KafkaEventLog(options);
    await log.connect();
    return log;
  }

  /** The Kafka topic of a stream. */
  topicName(topic: Topic): string {
    return this.naming.topicName(topic);
  }

  /** The Kafka consumer group of a subscription group: `<prefix>.<group>`. */
  groupName(group: string): string {
    return this.naming.groupName(group);
  }

  /** The partition an event with this key goes to (Kafka's default partitioner). */
  partitionFor(topic: Topic, key: string): number {
    return this.batcher.partitionFor(topic, key);
  }

  /** @internal The current producer (tests watch its requests). */
  private get producer(): Producer | null {
    return this.connection.producer;
  }

  /**
   * Connects, creating the missing topics; retries with backoff while the broker is
   * unreachable (see KafkaConnection). Every other method calls it implicitly, so
   * `void log.connect()` gives a non-blocking start whose progress `healthy()` reports.
   */
  connect(): Promise<void> {
    return this.connection.connect();
  }

  append(topic: Topic, events: EventEnvelope[]): Promise<LogPosition[]> {
    if (!TOPICS.includes(topic)) return Promise.reject(new TypeError(`unknown topic ${topic}`));
    if (!events.length) return Promise.resolve([]);
    if (this.connection.closed) return Promise.reject(new EventLogAppendError('event log is closed', false));
    return this.batcher.append(topic, events);
  }

  read(topic: Topic, partition: number, fromOffset: number, max: number): Promise<StoredEvent[]> {
    return this.fetchRecords(topic, partition, fromOffset, max, (o, r) => this.codec.decode(topic, partition, o, r));
  }

  readEncoded(topic: Topic, partition: number, fromOffset: number, max: number): Promise<EncodedEvent[]> {
    return this.fetchRecords(topic, partition, fromOffset, max, (offset, r) => this.codec.encoded(topic, partition, offset, r));
  }

  private async fetchRecords<T>(topic: Topic, partition: number, fromOffset: number, max: number, take: (offset: number, r: RawRecord) => T): Promise<T[]> {
    if (!TOPICS.includes(topic)) throw new TypeError(`unknown topic ${topic}`);
    if (!Number.isInteger(fromOffset) || fromOffset < 0) throw new RangeError(`invalid offset ${fromOffset}`);
    if (max <= 0) return [];
    await this.connect();
    const name = this.naming.topicName(topic);
    const out: T[] = [];
    let offset = fromOffset;
    while (out.length < max) {
      const reader = this.connection.reader;
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
        out.push(take(o, r));
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
    const offsets = await this.topicOffsets(topic);
    const p = offsets.find((x) => x.partition === partition);
    if (!p) throw new RangeError(`partition ${partition} does not exist in ${this.naming.topicName(topic)}`);
    return Number(p.low);
  }

  /** One ListOffsets request (the latest offsets only): every consistent read waits on it. */
  async endOffsets(topic: Topic): Promise<Map<number, number>> {
    if (!TOPICS.includes(topic)) throw new TypeError(`unknown topic ${topic}`);
    await this.connect();
    const reader = this.connection.reader;
    if (!reader) throw new Error('Kafka partition reader not connected');
    return retryWhileLeaderMoves(() => reader.endOffsets(this.naming.topicName(topic)));
  }

  /** The earliest and latest offsets of a topic's partitions (two ListOffsets requests). */
  private topicOffsets(topic: Topic) {
    return retryWhileLeaderMoves(() => this.connection.admin().fetchTopicOffsets(this.naming.topicName(topic)));
  }

  /** Connected, and the broker answers a metadata request within 3 s. */
  healthy(): Promise<boolean> {
    return this.connection.healthy();
  }

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
    if ((options.startFrom ?? 'committed') === 'beginning') {
      await forgetGroup(this.connection.admin(), this.naming.groupName(options.group), this.logger);
    }
    const { sessionTimeoutMs, retryInitialMs, retryMaxMs } = this.settings;
    const sub = new KafkaSubscription(this.connection.kafka, this.naming, this.codec, this.logger, options, { sessionTimeoutMs, retryInitialMs, retryMaxMs });
    this.subscriptions.add(sub);
    sub.onStopped = () => this.subscriptions.delete(sub);
    await sub.start();
    return sub;
  }

  async close(): Promise<void> {
    if (this.connection.closed) return;
    // Let what is queued or in flight finish (bounded by appendTimeoutMs), then stop.
    await this.batcher.drain(this.settings.appendTimeoutMs);
    await this.connection.close();
    this.batcher.abandonQueued('event log closed');
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.connection.disconnect();
  }
}

/** A broker that has just taken a partition's leadership (topics just created, a
 * restart) answers NOT_LEADER_FOR_PARTITION for a moment: such retriable answers are
 * asked again, a few times, briefly. */
function retryWhileLeaderMoves<T>(ask: () => Promise<T>): Promise<T> {
  return retry(ask, { ...OFFSET_BACKOFF, maxAttempts: OFFSET_RETRIES + 1, retriable: leaderMoving });
}

/** The broker answered, but is not (yet) the partition's leader: retriable in a moment.
 * A broker that cannot be reached is not retried here (callers have their own loops). */
function leaderMoving(err: unknown): boolean {
  const e = err as { name?: string; type?: string; retriable?: boolean };
  return e.name === 'KafkaJSProtocolError' && e.retriable === true && /LEADER/.test(e.type ?? '');
}
