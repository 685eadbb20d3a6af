export { EVENT_LOG, EventLogAppendError } from './event-log.port';
export type { EventLog, LogPosition, StoredEvent, StartFrom, SubscribeOptions, Subscription } from './event-log.port';
export { EventLogModule, openKafkaEventLog } from './event-log.module';
export { FileEventLog } from './file/file-event-log.adapter';
export type { FileEventLogOptions, FileEventLogLogger } from './file/file-event-log.adapter';
export { EventLogLockedError } from './file/lock-file';
export { KafkaEventLog } from './kafka';
export type { KafkaEventLogOptions, KafkaEventLogLogger } from './kafka';
export { LogFollower } from './log-follower';
