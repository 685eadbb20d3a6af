import { KafkaMessage } from 'kafkajs';
import { encodeEvent, EventEnvelope, Topic } from '@cds/events';
import { EncodedEvent, StoredEvent } from '../event-log.port';
import { KafkaEventLogLogger } from './kafka-event-log.options';
import { errText } from './kafka-logging';
import { RawRecord } from './kafka-partition-reader';
import { KafkaNaming } from './kafka-naming';

/** A Kafka message of an append, before its partition is chosen. */
export interface KeyedValue {
  key: string;
  value: string;
}

/** Envelopes to Kafka messages (keyed by `event.key`, the envelope as JSON) and back. */
export class KafkaRecordCodec {
  constructor(
    private readonly naming: KafkaNaming,
    private readonly logger: Pick<KafkaEventLogLogger, 'error'>,
  ) {}

  /** Throws a TypeError on an event without a string id and a non-empty string key. */
  encode(events: EventEnvelope[]): KeyedValue[] {
    return events.map((e) => {
      if (typeof e !== 'object' || e === null || typeof e.id !== 'string' || typeof e.key !== 'string' || !e.key) {
        throw new TypeError('an event needs a string id and a non-empty string key');
      }
      return { key: e.key, value: encodeEvent(e) };
    });
  }

  /** A record's value as the text the log holds, left for the handler to parse (an
   * empty value is the empty string, which a decoder parks as not JSON). */
  encoded(topic: Topic, partition: number, offset: number, r: RawRecord | KafkaMessage): EncodedEvent {
    return { topic, partition, offset, json: r.value ? r.value.toString('utf8') : '' };
  }

  /** A record's value as an envelope. A value that is not JSON is delivered as a
   * stand-in of type `event-log.unreadable` (so schema checks above park it, with its
   * position) rather than blocking the partition forever. */
  decode(topic: Topic, partition: number, offset: number, r: RawRecord | KafkaMessage): StoredEvent {
    const text = r.value ? r.value.toString('utf8') : '';
    try {
      const event = JSON.parse(text) as EventEnvelope;
      if (typeof event !== 'object' || event === null) throw new Error('not an object');
      return { topic, partition, offset, event };
    } catch (e) {
      const name = this.naming.topicName(topic);
      this.logger.error(`${name}/${partition}@${offset}: value is not a JSON envelope (${errText(e)})`);
      const key = r.key ? r.key.toString('utf8') : '';
      return {
        topic,
        partition,
        offset,
        event: {
          id: `unreadable:${name}:${partition}:${offset}`,
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
}
