import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfig } from '@cds/config';
import { EVENT_LOG, EventLog } from './event-log.port';
import { FileEventLog } from './file/file-event-log.adapter';
import { KafkaEventLog } from './kafka/kafka-event-log.adapter';

/** The Kafka log of this process. It connects in the background: a broker that is down
 * at start does not stop the process; `healthy()` (readiness) says false, the adapter
 * logs each failed attempt and retries with backoff, and appends wait for it
 * (bounded by their own timeout). */
export function openKafkaEventLog(config: AppConfig, logger = new Logger('EventLog')): KafkaEventLog {
  const log = new KafkaEventLog({
    brokers: config.KAFKA_BROKERS.split(',')
      .map((b) => b.trim())
      .filter(Boolean),
    clientId: `cds-${config.ROLE}-${os.hostname()}-${process.pid}`,
    topicPrefix: config.TOPIC_PREFIX,
    logger,
    // A consumer that died without leaving its group holds its partitions this long.
    sessionTimeoutMs: 10_000,
    // An append waits for a broker that is away up to this long; then 503, nothing recorded.
    appendTimeoutMs: 30_000,
  });
  log.connect().catch((e: Error) => logger.warn(`Kafka connection abandoned: ${e.message}`));
  return log;
}

/** Picks the event-log adapter from EVENT_LOG. */
@Global()
@Module({})
export class EventLogModule implements OnApplicationShutdown {
  constructor(@Inject(EVENT_LOG) private readonly log: EventLog) {}

  static forRoot(): DynamicModule {
    return {
      module: EventLogModule,
      providers: [
        {
          provide: EVENT_LOG,
          inject: [AppConfig],
          useFactory: async (config: AppConfig): Promise<EventLog> => {
            const logger = new Logger('EventLog');
            switch (config.EVENT_LOG) {
              case 'file':
                return FileEventLog.open({ dir: path.join(config.DATA_DIR, 'log'), logger });
              case 'kafka':
                return openKafkaEventLog(config, logger);
            }
          },
        },
      ],
      exports: [EVENT_LOG],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.log.close();
  }
}
