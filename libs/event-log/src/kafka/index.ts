export { KafkaEventLog, EventLogAppendError } from './kafka-event-log.adapter';
export type { KafkaEventLogOptions, KafkaEventLogLogger } from './kafka-event-log.adapter';
