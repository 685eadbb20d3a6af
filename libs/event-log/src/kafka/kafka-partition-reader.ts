import { Kafka } from 'kafkajs';

/** One fetched record, as kafkajs decodes it. */
export interface RawRecord {
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  isControlRecord?: boolean;
}

export interface PartitionFetch {
  records: RawRecord[];
  /** Next offset to be written in the partition (the last acknowledged one + 1). */
  highWatermark: number;
}

/**
 * Reads one partition from an offset without a consumer group: a plain Fetch request
 * to the partition's leader, the way Kafka's `assign()`+`seek()` consumers work.
 *
 * kafkajs only offers group consumers publicly (joining a group per replay read costs
 * a JoinGroup/SyncGroup round and, on a default broker, group.initial.rebalance.delay.ms
 * = 3 s), so this drives the client's own cluster object, which kafkajs creates for its
 * producer, consumer and admin. kafkajs is at its final release (2.2.4); the constructor
 * below fails loudly if that internal ever moves.
 */
export class PartitionReader {
  private readonly cluster: any;

  constructor(kafka: Kafka) {
    const key = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster');
    const create = key ? (kafka as any)[key] : undefined;
    if (typeof create !== 'function') {
      throw new Error('kafkajs internals changed: cannot create a cluster client for partition reads (kafkajs 2.2.x expected)');
    }
    this.cluster = create({ metadataMaxAge: 60_000, allowAutoTopicCreation: false, maxInFlightRequests: null });
  }

  async connect(): Promise<void> {
    if (!this.cluster.isConnected()) await this.cluster.connect();
  }

  async disconnect(): Promise<void> {
    await this.cluster.disconnect();
  }

  /**
   * The next offset to be written in each partition of `topic` (its high watermark): one
   * ListOffsets request to the leader. kafkajs' admin `fetchTopicOffsets` sends two in a
   * row (the latest and the earliest offsets), and a read waits on this for every
   * consistent query.
   */
  endOffsets(topic: string): Promise<Map<number, number>> {
    return this.withMetadata(topic, async (partitions) => {
      const [answer] = await this.cluster.fetchTopicsOffset([
        { topic, fromBeginning: false, partitions: partitions.map((p: any) => ({ partition: p.partitionId })) },
      ]);
      return new Map((answer?.partitions ?? []).map((p: any) => [Number(p.partition), Number(p.offset)]));
    });
  }

  /** Records of `topic`/`partition` from `offset` on (the first record batch may start
   * before `offset`: the caller filters), up to about `maxBytes`. */
  async fetch(topic: string, partition: number, offset: number, maxBytes: number): Promise<PartitionFetch> {
    try {
      return await this.withMetadata(topic, async (partitions) => {
        const meta = partitions.find((p: any) => p.partitionId === partition);
        if (!meta) throw new RangeError(`partition ${partition} does not exist in topic ${topic}`);
        const broker = await this.cluster.findBroker({ nodeId: String(meta.leader) });
        const response = await broker.fetch({
          replicaId: -1,
          isolationLevel: 1, // READ_COMMITTED: nothing above the high watermark / last stable offset
          maxWaitTime: 0,
          minBytes: 0,
          maxBytes,
          topics: [{ topic, partitions: [{ partition, fetchOffset: String(offset), maxBytes }] }],
        });
        const p = response.responses?.[0]?.partitions?.find((x: any) => x.partition === partition);
        if (!p) return { records: [], highWatermark: offset };
        return { records: p.messages as RawRecord[], highWatermark: Number(p.highWatermark) };
      });
    } catch (e: any) {
      if (e?.type === 'OFFSET_OUT_OF_RANGE') return { records: [], highWatermark: -1 };
      throw e;
    }
  }

  /** Runs `request` with the topic's partition metadata, connected; on an error after
   * which that metadata may be stale (leader moved, broker reconnected) it refreshes the
   * metadata and asks again, twice at most. */
  private async withMetadata<T>(topic: string, request: (partitions: any[]) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.connect();
        await this.cluster.addTargetTopic(topic);
        await this.cluster.refreshMetadataIfNecessary();
        return await request(this.cluster.findTopicPartitionMetadata(topic));
      } catch (e: any) {
        if (!isStale(e) || attempt >= 2) throw e;
        await this.cluster.refreshMetadata().catch(() => undefined);
      }
    }
  }
}

/** Errors after which the cluster's metadata may be stale (leader moved, broker reconnected). */
function isStale(e: any): boolean {
  return (
    e?.name === 'KafkaJSConnectionError' ||
    e?.name === 'KafkaJSConnectionClosedError' ||
    e?.name === 'KafkaJSBrokerNotFound' ||
    e?.type === 'NOT_LEADER_FOR_PARTITION' ||
    e?.type === 'LEADER_NOT_AVAILABLE' ||
    e?.type === 'UNKNOWN_TOPIC_OR_PARTITION'
  );
}
