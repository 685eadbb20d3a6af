export { KafkaEventLog, KafkaEventLogOptions, KafkaEventLogLogger, EventLogAppendError } from './kafka-event-log.adapter';
