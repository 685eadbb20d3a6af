import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { encodeEvent } from '@cds/events';
import type { EventEnvelope, Topic } from '@cds/events';
import { positionsHandler } from '../event-log.port';
import type { EncodedEvent, EventLog, LogPosition, StoredEvent, SubscribeOptions, Subscription } from '../event-log.port';
import { GroupCheckpoints } from './checkpoint-store';
import { FileSubscription } from './file-subscription';
import { ensureDir } from './fs-durable';
import { LockFile } from './lock-file';
import { PartitionLog, PartitionSettings } from './partition-log';

/** What the adapter logs through (a Nest `Logger` fits). */
export interface FileEventLogLogger {
  warn(message: string): void;
  log(message: string): void;
}

export interface FileEventLogOptions {
  /** Root of the log: `topics/<topic>/<base offset>.seg`, `checkpoints/<group>.json`, `LOCK`. */
  dir: string;
  /** A segment is sealed, and the next one started, once it holds this many bytes (default 64 MiB). */
  segmentBytes?: number;
  /** How long an idle log waits to gather concurrent appends into its first commit
   * (default 0: the appends of the same tick; appends arriving during an fsync are
   * always gathered into the next one). */
  groupCommitMaxWaitMs?: number;
  logger?: FileEventLogLogger;
  /** Backoff of a failing subscription handler (defaults 200 ms doubling to 5 s). */
  retryInitialMs?: number;
  retryMaxMs?: number;
}

const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;
const DEFAULT_MAX_BATCH = 500;
const TOPIC_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const ENVELOPE_STRINGS = ['id', 'type', 'key', 'tenantId'] as const;

const consoleLogger: FileEventLogLogger = {
  warn: (message) => console.warn(`[FileEventLog] ${message}`),
  log: () => undefined,
};

/**
 * The embedded event log: append-only segment files, one partition (0) per topic,
 * fsync'd before an append resolves, with group commit. One process holds a log
 * directory at a time (`LOCK`). Events are stored and returned as plain JSON: schema
 * validation and upcasting are the callers' business.
 */
export class FileEventLog implements EventLog {
  private readonly partitions = new Map<string, PartitionLog>();
  private readonly groups = new Map<string, Promise<GroupCheckpoints>>();
  /** Topics each group is consuming right now, so two members never deliver the same events. */
  private readonly claims = new Map<string, Set<string>>();
  private readonly subscriptions = new Set<FileSubscription>();
  private readonly settings: PartitionSettings;
  private readonly logger: FileEventLogLogger;
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly options: FileEventLogOptions,
    private readonly lock: LockFile,
  ) {
    this.logger = options.logger ?? consoleLogger;
    this.settings = {
      segmentBytes: options.segmentBytes ?? DEFAULT_SEGMENT_BYTES,
      groupCommitMaxWaitMs: options.groupCommitMaxWaitMs ?? 0,
      // The in-memory tail per topic that caught-up subscribers are served from.
      cacheRecords: 20_000,
      cacheChars: 16 * 1024 * 1024,
    };
  }

  /** Lock `options.dir`, recover every topic (cutting torn tails), and open for appends. */
  static async open(options: FileEventLogOptions): Promise<FileEventLog> {
    if (typeof options.dir !== 'string' || options.dir === '') throw new Error('FileEventLog: dir is required');
    const { segmentBytes, groupCommitMaxWaitMs } = options;
    if (segmentBytes !== undefined && !(Number.isInteger(segmentBytes) && segmentBytes > 0)) {
      throw new Error(`FileEventLog: segmentBytes must be a positive integer (got ${segmentBytes})`);
    }
    if (groupCommitMaxWaitMs !== undefined && !(groupCommitMaxWaitMs >= 0)) {
      throw new Error(`FileEventLog: groupCommitMaxWaitMs must be >= 0 (got ${groupCommitMaxWaitMs})`);
    }
    await ensureDir(options.dir);
    const lock = LockFile.acquire(options.dir);
    const log = new FileEventLog(options, lock);
    try {
      await log.recover();
    } catch (err) {
      await Promise.allSettled([...log.partitions.values()].map((p) => p.close()));
      lock.release();
      throw err;
    }
    return log;
  }

  async append(topic: Topic, events: EventEnvelope[]): Promise<LogPosition[]> {
    const partition = this.partition(topic);
    if (!Array.isArray(events)) throw new TypeError('append: events must be an array');
    const jsons = events.map((event, i) => {
      checkEnvelope(event, i);
      return encodeEvent(event);
    });
    if (jsons.length === 0) return [];
    const first = await partition.append(jsons);
    return jsons.map((_, i) => ({ topic, partition: 0, offset: first + i }));
  }

  async read(topic: Topic, partition: number, fromOffset: number, max: number): Promise<StoredEvent[]> {
    return this.readStored(topic, this.checkedRead(topic, partition, fromOffset, max), fromOffset, max);
  }

  async readEncoded(topic: Topic, partition: number, fromOffset: number, max: number): Promise<EncodedEvent[]> {
    const log = this.checkedRead(topic, partition, fromOffset, max);
    return (await log.readEncoded(fromOffset, max)).map((r) => ({ topic, partition: 0, offset: r.offset, json: r.json }));
  }

  private checkedRead(topic: Topic, partition: number, fromOffset: number, max: number): PartitionLog {
    const log = this.partition(topic);
    if (partition !== 0) throw new RangeError(`read: topic ${topic} has only partition 0 (got ${partition})`);
    if (!Number.isInteger(fromOffset) || fromOffset < 0) throw new RangeError(`read: fromOffset must be an integer >= 0 (got ${fromOffset})`);
    if (!Number.isInteger(max) || max < 0) throw new RangeError(`read: max must be an integer >= 0 (got ${max})`);
    return log;
  }

  async endOffsets(topic: Topic): Promise<Map<number, number>> {
    return this.endOffsetsNow(topic);
  }

  endOffsetsNow(topic: Topic): Map<number, number> {
    return new Map([[0, this.partition(topic).endOffset]]);
  }

  async healthy(): Promise<boolean> {
    if (this.closing) return false;
    for (const p of this.partitions.values()) if (p.failed) return false;
    return true;
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.assertOpen();
    const { group } = options;
    const handler = positionsHandler(options);
    const startFrom = options.startFrom ?? 'committed';
    const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
    if (typeof group !== 'string' || group === '') throw new Error('subscribe: group is required');
    if (typeof handler !== 'function') throw new Error('subscribe: handler is required');
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError(`subscribe: maxBatch must be a positive integer (got ${maxBatch})`);
    if (startFrom !== 'committed' && startFrom !== 'beginning') throw new Error(`subscribe: unknown startFrom ${String(startFrom)}`);
    const topics = [...new Set(options.topics ?? [])];
    if (topics.length === 0) throw new Error('subscribe: topics must not be empty');
    const logs = new Map(topics.map((t) => [t, this.partition(t)]));

    const claimed = this.claims.get(group) ?? new Set<string>();
    const taken = topics.filter((t) => claimed.has(t));
    if (taken.length) throw new Error(`subscribe: group ${group} already consumes ${taken.join(', ')} in this process; stop that subscription first`);
    for (const t of topics) claimed.add(t);
    this.claims.set(group, claimed);
    const unclaim = () => {
      for (const t of topics) claimed.delete(t);
      if (claimed.size === 0 && this.claims.get(group) === claimed) this.claims.delete(group);
    };

    let checkpoints: GroupCheckpoints;
    try {
      checkpoints = await this.checkpointsOf(group);
      this.assertOpen();
    } catch (err) {
      unclaim();
      throw err;
    }
    const positions = new Map<Topic, number>();
    for (const topic of topics) {
      const end = logs.get(topic)!.endOffset;
      let next = startFrom === 'beginning' ? 0 : (checkpoints.get(topic) ?? 0);
      if (next > end) {
        this.logger.warn(`group ${group}: checkpoint ${next} of ${topic} is past the end of the log (${end}); resuming at ${end}`);
        next = end;
      }
      positions.set(topic, next);
      if (startFrom === 'beginning') checkpoints.set(topic, 0);
    }

    const subscription: FileSubscription = new FileSubscription(
      {
        group,
        positions,
        handler,
        maxBatch,
        retryInitialMs: this.options.retryInitialMs ?? 200,
        retryMaxMs: this.options.retryMaxMs ?? 5_000,
      },
      checkpoints,
      {
        endOffset: (topic) => logs.get(topic)!.endOffset,
        read: (topic, from, max) => (options.encoded ? this.readEncoded(topic, 0, from, max) : this.readStored(topic, logs.get(topic)!, from, max)),
        onAppended: (topic, listener) => logs.get(topic)!.onAppended(listener),
      },
      this.logger,
      () => {
        unclaim();
        this.subscriptions.delete(subscription);
      },
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** Refuse new work, let queued appends finish (they resolve), stop subscriptions after
   * their in-flight batch, persist checkpoints, close files, release the lock. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...[...this.partitions.values()].map((p) => p.close()), ...[...this.subscriptions].map((s) => s.stop())]);
      const groups = await Promise.allSettled(this.groups.values());
      for (const g of groups) if (g.status === 'fulfilled') await g.value.flush();
      this.lock.release();
    })();
    return this.closing;
  }

  private async recover(): Promise<void> {
    const topicsDir = path.join(this.options.dir, 'topics');
    let names: string[] = [];
    try {
      names = (await readdir(topicsDir, { withFileTypes: true })).filter((d) => d.isDirectory() && TOPIC_NAME.test(d.name)).map((d) => d.name);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    for (const name of names) {
      this.partitions.set(name, await PartitionLog.open(path.join(topicsDir, name), name, this.settings, this.logger));
    }
    const summary = names.map((n) => `${n}=${this.partitions.get(n)!.endOffset}`).join(', ');
    this.logger.log(`event log opened at ${this.options.dir}${summary ? ` (end offsets: ${summary})` : ' (empty)'}`);
  }

  /** The partition of `topic`; one not on disk yet starts empty (the lock makes that safe). */
  private partition(topic: string): PartitionLog {
    this.assertOpen();
    let p = this.partitions.get(topic);
    if (!p) {
      if (typeof topic !== 'string' || !TOPIC_NAME.test(topic)) throw new Error(`invalid topic name ${JSON.stringify(topic)}`);
      p = PartitionLog.empty(path.join(this.options.dir, 'topics', topic), topic, this.settings, this.logger);
      this.partitions.set(topic, p);
    }
    return p;
  }

  private async readStored(topic: Topic, log: PartitionLog, from: number, max: number): Promise<StoredEvent[]> {
    const records = await log.read(from, max);
    return records.map((r) => ({ topic, partition: 0, offset: r.offset, event: r.event as EventEnvelope }));
  }

  private checkpointsOf(group: string): Promise<GroupCheckpoints> {
    let g = this.groups.get(group);
    if (!g) {
      g = GroupCheckpoints.load(path.join(this.options.dir, 'checkpoints'), group, this.logger);
      this.groups.set(group, g);
      g.catch(() => this.groups.delete(group));
    }
    return g;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('event log is closed');
  }
}

/** The log stays generic, but refuses what could not be keyed or routed later. */
function checkEnvelope(event: unknown, index: number): void {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new TypeError(`append: event ${index} is not an object`);
  }
  for (const field of ENVELOPE_STRINGS) {
    if (typeof (event as Record<string, unknown>)[field] !== 'string') {
      throw new TypeError(`append: event ${index} has no string ${field}`);
    }
  }
}
