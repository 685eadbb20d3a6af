import { Topic, TOPICS } from '@cds/events';

/** The names of one log on the cluster: every topic and consumer group is
 * `<prefix>.<name>`, so logs with different prefixes on one cluster share nothing. */
export class KafkaNaming {
  constructor(private readonly prefix: string) {
    if (!/^[A-Za-z0-9._-]+$/.test(prefix)) throw new Error(`KafkaEventLog: invalid topicPrefix "${prefix}"`);
  }

  /** The Kafka topic of a stream. */
  topicName(topic: Topic): string {
    return `${this.prefix}.${topic}`;
  }

  /** The Kafka topics of every stream of TOPICS. */
  topicNames(): string[] {
    return TOPICS.map((t) => this.topicName(t));
  }

  /** The Kafka consumer group of a subscription group (never shared with another prefix,
   * nor its members and offsets). */
  groupName(group: string): string {
    return `${this.prefix}.${group}`;
  }

  /** The stream of a Kafka topic name of this log. */
  streamOf(kafkaTopic: string): Topic {
    const t = kafkaTopic.slice(this.prefix.length + 1) as Topic;
    if (!TOPICS.includes(t)) throw new Error(`not a topic of this log: ${kafkaTopic}`);
    return t;
  }
}
