import { Admin, ITopicConfig, Kafka, Partitioners, Producer } from 'kafkajs';
import { retry } from '@cds/backoff';
import { Topic, TOPICS } from '@cds/events';
import { KafkaEventLogLogger, KafkaSettings } from './kafka-event-log.options';
import { errText, KAFKA_LOG_LEVELS, kafkaLogCreator } from './kafka-logging';
import { KafkaNaming } from './kafka-naming';
import { PartitionReader } from './kafka-partition-reader';

/** Reconnects use the first delay of the other retries, capped lower (5 s) so the log
 * resumes promptly once the broker is back. */
const RECONNECT_MAX_MS = 5_000;

/**
 * The clients of one log (admin, health-probe admin, idempotent producer, partition
 * reader) and their lifecycle: connect with backoff, create the missing topics, learn
 * their partition counts, recreate the producer, answer the health probe, disconnect.
 */
export class KafkaConnection {
  readonly kafka: Kafka;
  private currentAdmin: Admin | null = null;
  private probeAdmin: Admin | null = null;
  private currentProducer: Producer | null = null;
  private currentReader: PartitionReader | null = null;
  private connecting: Promise<void> | null = null;
  private isConnected = false;
  private isClosed = false;
  private readonly partitionCounts = new Map<Topic, number>();
  /** Waits cut short by `close()`. */
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly settings: KafkaSettings,
    private readonly naming: KafkaNaming,
    private readonly logger: KafkaEventLogLogger,
  ) {
    this.kafka = new Kafka({
      clientId: settings.clientId,
      brokers: settings.brokers,
      connectionTimeout: 3_000,
      requestTimeout: 30_000,
      // Client-level retries stay short: an attempt to reach a dead broker fails in ~2 s and
      // the adapter's own loops (connect, producer, consumer restarts) do the long backoff.
      retry: { initialRetryTime: 100, maxRetryTime: 1_000, retries: 3 },
      logLevel: KAFKA_LOG_LEVELS[settings.clientLogLevel],
      logCreator: kafkaLogCreator(logger),
    });
  }

  get connected(): boolean {
    return this.isConnected;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** The current idempotent producer (replaced by `resetProducer`). */
  get producer(): Producer | null {
    return this.currentProducer;
  }

  get reader(): PartitionReader | null {
    return this.currentReader;
  }

  /** The admin client; call once `connect()` resolved. */
  admin(): Admin {
    if (!this.currentAdmin) throw new Error('Kafka admin not connected');
    return this.currentAdmin;
  }

  /** Partitions of a stream's topic, known once connected. */
  partitionCount(topic: Topic): number | undefined {
    return this.partitionCounts.get(topic);
  }

  /**
   * Connects the admin client and the producer, creates the missing topics and learns
   * their partition counts. While the broker is unreachable it retries with exponential
   * backoff (logging each failure) until it succeeds, `close()` is called, or
   * `connectTimeoutMs` passes. Concurrent calls share one attempt.
   */
  connect(): Promise<void> {
    if (this.isClosed) return Promise.reject(new Error('KafkaEventLog is closed'));
    if (this.isConnected) return Promise.resolve();
    if (!this.connecting) {
      this.connecting = this.connectLoop().finally(() => {
        this.connecting = null;
      });
    }
    return this.connecting;
  }

  private async connectLoop(): Promise<void> {
    const { brokers, connectTimeoutMs, retryInitialMs, retryMaxMs } = this.settings;
    const backoff = { baseMs: retryInitialMs, maxMs: Math.min(retryMaxMs, RECONNECT_MAX_MS) };
    const started = Date.now();
    let attempts = 0;
    try {
      await retry(
        (n) => {
          attempts = n;
          return this.connectOnce();
        },
        backoff,
        {
          stopped: () => this.isClosed,
          onFailure: (e, attempt, delay) => {
            const elapsed = Date.now() - started;
            if (connectTimeoutMs !== undefined && elapsed + delay > connectTimeoutMs) {
              throw new Error(`Kafka ${brokers.join(',')} unreachable for ${elapsed} ms: ${errText(e)}`);
            }
            this.logger.warn(`Kafka ${brokers.join(',')} not usable (attempt ${attempt}): ${errText(e)}; retrying in ${delay} ms`);
          },
          sleep: (ms) => this.pause(ms),
        },
      );
    } catch (e) {
      if (this.isClosed) throw new Error('KafkaEventLog closed while connecting');
      throw e;
    }
    this.isConnected = true;
    this.logger.log(`connected to Kafka ${brokers.join(',')}${attempts > 1 ? ` after ${attempts} attempts` : ''}`);
  }

  /** Sleeps, or less when close() is called. */
  pause(ms: number): Promise<void> {
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
      if (this.isClosed) throw new Error('closed');
    } catch (e) {
      await Promise.all(clients.map((c) => c.disconnect().catch(() => undefined)));
      throw e;
    }
    this.currentAdmin = admin;
    this.probeAdmin = probeAdmin;
    this.currentProducer = producer;
    this.currentReader = reader;
  }

  /** A fresh idempotent producer (new producer id) in place of the current one. */
  async resetProducer(): Promise<void> {
    const old = this.currentProducer;
    const producer = this.createProducer();
    this.currentProducer = producer;
    await old?.disconnect().catch(() => undefined);
    // else the next send connects (unless close() took the clients meanwhile)
    if (this.currentProducer === producer) await producer.connect().catch(() => undefined);
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

  /** One topic per stream, unlimited retention, delete policy, never compacted: the log
   * is the source of truth. */
  private async ensureTopics(admin: Admin): Promise<void> {
    const { partitions, replicationFactor, minInSyncReplicas, maxMessageBytes } = this.settings;
    const names = this.naming.topicNames();
    const existing = new Set(await admin.listTopics());
    const missing: ITopicConfig[] = names
      .filter((name) => !existing.has(name))
      .map((topic) => ({
        topic,
        numPartitions: partitions,
        replicationFactor,
        configEntries: [
          { name: 'retention.ms', value: '-1' },
          { name: 'retention.bytes', value: '-1' },
          { name: 'cleanup.policy', value: 'delete' },
          { name: 'min.insync.replicas', value: String(minInSyncReplicas) },
          { name: 'max.message.bytes', value: String(maxMessageBytes) },
          { name: 'unclean.leader.election.enable', value: 'false' },
        ],
      }));
    if (missing.length) {
      try {
        await admin.createTopics({ topics: missing, waitForLeaders: true, timeout: 30_000 });
        this.logger.log(
          `created topics ${missing.map((t) => t.topic).join(', ')} (${partitions} partitions, replication ${replicationFactor}, unlimited retention)`,
        );
      } catch (e: any) {
        // Another process may have created them concurrently.
        if (e?.type !== 'TOPIC_ALREADY_EXISTS' && !/already exists/i.test(String(e?.message))) throw e;
      }
    }
    const kept = names.filter((t) => existing.has(t));
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
    const meta = await admin.fetchTopicMetadata({ topics: names });
    for (const tm of meta.topics) {
      const stream = this.naming.streamOf(tm.name);
      this.partitionCounts.set(stream, tm.partitions.length);
      if (tm.partitions.some((p) => p.leader < 0)) throw new Error(`topic ${tm.name} has partitions without a leader`);
    }
  }

  /** Connected, and the broker answers a metadata request within 3 s. */
  async healthy(): Promise<boolean> {
    if (!this.isConnected || !this.probeAdmin || this.isClosed) return false;
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

  /** No more connecting: cuts every pause short and waits for a connect in progress. */
  async close(): Promise<void> {
    this.isClosed = true;
    for (const wake of this.wakers) wake();
    this.wakers.clear();
    await this.connecting?.catch(() => undefined);
  }

  async disconnect(): Promise<void> {
    const clients = [this.currentProducer, this.currentAdmin, this.probeAdmin, this.currentReader];
    this.currentProducer = this.currentAdmin = this.probeAdmin = null;
    this.currentReader = null;
    this.isConnected = false;
    await Promise.all(clients.map((c) => c?.disconnect().catch(() => undefined)));
  }
}
