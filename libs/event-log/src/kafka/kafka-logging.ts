import { logLevel as KafkaLogLevel, LogEntry, logCreator } from 'kafkajs';
import { KafkaEventLogLogger } from './kafka-event-log.options';

/** An error as one line of a log message. */
export const errText = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

export const KAFKA_LOG_LEVELS = { error: KafkaLogLevel.ERROR, warn: KafkaLogLevel.WARN, info: KafkaLogLevel.INFO, debug: KafkaLogLevel.DEBUG };

/** kafkajs' log, passed on to `logger`. kafkajs repeats the same complaint many times a
 * second while a broker is away: each distinct message is passed on at most once per
 * 5 s, with a count of the rest. */
export function kafkaLogCreator(logger: KafkaEventLogLogger): logCreator {
  const recent = new Map<string, { at: number; suppressed: number }>();
  const emit = (level: KafkaLogLevel, text: string) => {
    if (level <= KafkaLogLevel.ERROR) logger.error(text);
    else if (level === KafkaLogLevel.WARN) logger.warn(text);
    else if (level === KafkaLogLevel.INFO) logger.log(text);
    else logger.debug?.(text);
  };
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, error, broker } = log as { message: string; error?: string; broker?: string };
      const text = `kafkajs: ${message}${error ? ` (${error})` : ''}${broker ? ` [${broker}]` : ''}`;
      const now = Date.now();
      const seen = recent.get(text);
      if (seen && now - seen.at < 5_000) {
        seen.suppressed++;
        return;
      }
      recent.set(text, { at: now, suppressed: 0 });
      if (recent.size > 200) for (const [k, v] of recent) if (now - v.at >= 5_000) recent.delete(k);
      emit(level, seen?.suppressed ? `${text} (+${seen.suppressed} more in the last ${Math.round((now - seen.at) / 1000)} s)` : text);
    };
}
