import { EventEnvelope, Topic } from '@cds/events';

export const EVENT_LOG = Symbol('EVENT_LOG');

/** Where an event landed. Offsets are per (topic, partition), dense, from 0. */
export interface LogPosition {
  topic: Topic;
  partition: number;
  offset: number;
}

export interface StoredEvent extends LogPosition {
  event: EventEnvelope;
}

/** A stored event as the log holds it: its envelope as JSON text, not yet parsed. */
export interface EncodedEvent extends LogPosition {
  json: string;
}

/** What a consumer wants from where. `committed` resumes the group's checkpoint
 * (or the beginning when the group has none); `beginning` ignores it. */
export type StartFrom = 'committed' | 'beginning';

export interface SubscribeCommon {
  group: string;
  topics: Topic[];
  startFrom?: StartFrom;
  maxBatch?: number;
  /** How many partitions' batches may be in the handler at once (default 1). Order
   * within a partition always holds; a handler that keeps no state across partitions
   * (the projector: every document lives in one partition) can take more. */
  concurrentPartitions?: number;
}

/**
 * What a consumer wants from where, and its handler: called with events in offset order
 * per partition. The group's checkpoint moves past a batch only after the returned
 * promise resolves: a throw re-delivers it. The events come parsed, or with `encoded`
 * as the JSON text the log holds, for a handler that parses them elsewhere or not all of
 * them (the embedded projector, on its writer thread; the webhook dispatcher, which skips
 * most events on their heads).
 */
export type SubscribeOptions = SubscribeCommon &
  ({ encoded?: false; handler: (batch: StoredEvent[]) => Promise<void> } | { encoded: true; handler: (batch: EncodedEvent[]) => Promise<void> });

/** The handler of `options` over positions: a log hands it the form `encoded` asks for. */
export function positionsHandler(options: SubscribeOptions): (batch: LogPosition[]) => Promise<void> {
  return options.handler as (batch: LogPosition[]) => Promise<void>;
}

export interface Subscription {
  /** Stop delivering; resolves once the in-flight batch (if any) has finished. */
  stop(): Promise<void>;
}

/**
 * The source of truth. `append` resolves only when every event is durable
 * (fsync'd file, or acknowledged by all in-sync replicas); events of one call land
 * in order. Nothing is ever edited or deleted.
 */
export interface EventLog {
  append(topic: Topic, events: EventEnvelope[]): Promise<LogPosition[]>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /** Replay: read up to `max` events of one partition starting at `fromOffset`. */
  read(topic: Topic, partition: number, fromOffset: number, max: number): Promise<StoredEvent[]>;
  /** The same events as `read`, each as the JSON text of its envelope, for a caller that
   * parses them elsewhere (the rebuild decodes on worker threads). */
  readEncoded(topic: Topic, partition: number, fromOffset: number, max: number): Promise<EncodedEvent[]>;
  /** Next offset to be written, per partition. */
  endOffsets(topic: Topic): Promise<Map<number, number>>;
  /** The same, answered at once, by a log that keeps its ends in memory (the file log);
   * absent on one that has to ask (Kafka). */
  endOffsetsNow?(topic: Topic): Map<number, number>;
  /** Is the log reachable right now (readiness). */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

/** Thrown by `append` when the events were not acknowledged in time. The write path
 * branches on `maybeAppended`: never sent (nothing recorded, safe to retry) or unknown. */
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
