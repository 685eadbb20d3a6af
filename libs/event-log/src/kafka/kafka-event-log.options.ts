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

/** The options with their defaults filled in. */
export type KafkaSettings = Required<Omit<KafkaEventLogOptions, 'logger' | 'connectTimeoutMs'>> & { connectTimeoutMs?: number };

export function kafkaSettings(options: KafkaEventLogOptions): KafkaSettings {
  const rf = options.replicationFactor ?? 1;
  return {
    brokers: options.brokers,
    clientId: options.clientId,
    topicPrefix: options.topicPrefix,
    partitions: options.partitions ?? 3,
    replicationFactor: rf,
    minInSyncReplicas: options.minInSyncReplicas ?? (rf >= 3 ? 2 : 1),
    maxMessageBytes: options.maxMessageBytes ?? 8 * 1024 * 1024,
    clientLogLevel: options.clientLogLevel ?? 'warn',
    appendTimeoutMs: options.appendTimeoutMs ?? 30_000,
    lingerMs: options.lingerMs ?? 0,
    maxBatchEvents: options.maxBatchEvents ?? 5_000,
    maxBatchBytes: options.maxBatchBytes ?? 1024 * 1024,
    connectTimeoutMs: options.connectTimeoutMs,
    retryInitialMs: options.retryInitialMs ?? 200,
    retryMaxMs: options.retryMaxMs ?? 30_000,
    sessionTimeoutMs: options.sessionTimeoutMs ?? 30_000,
  };
}

export const CONSOLE_LOGGER: KafkaEventLogLogger = {
  log: (m) => console.log(`[EventLog] ${m}`),
  warn: (m) => console.warn(`[EventLog] ${m}`),
  error: (m) => console.error(`[EventLog] ${m}`),
};
