export { KafkaEventLog } from './kafka-event-log.adapter';
export type { KafkaEventLogOptions, KafkaEventLogLogger } from './kafka-event-log.options';
