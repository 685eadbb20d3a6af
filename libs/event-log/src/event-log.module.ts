import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import * as path from 'node:path';
import { AppConfig } from '@cds/config';
import { EVENT_LOG, EventLog } from './event-log.port';
import { FileEventLog } from './file/file-event-log.adapter';

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
                throw new Error('EVENT_LOG=kafka is not available in this build');
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
