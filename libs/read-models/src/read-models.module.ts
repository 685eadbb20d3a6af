import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import * as path from 'node:path';
import { AppConfig } from '@cds/config';
import { READ_MODELS, ReadModels } from './read-models.port';
import { SqliteReadModels } from './sqlite/sqlite-read-models.adapter';
import { openElasticsearchWithRetry } from './elasticsearch/open-with-retry';

/** Picks the read-models adapter from READ_MODELS. */
@Global()
@Module({})
export class ReadModelsModule implements OnApplicationShutdown {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  static forRoot(): DynamicModule {
    return {
      module: ReadModelsModule,
      providers: [
        {
          provide: READ_MODELS,
          inject: [AppConfig],
          useFactory: async (config: AppConfig): Promise<ReadModels> => {
            switch (config.READ_MODELS) {
              case 'sqlite':
                return SqliteReadModels.open(path.join(config.DATA_DIR, 'readmodels'));
              case 'elasticsearch':
                return openElasticsearchWithRetry({ node: config.ELASTICSEARCH_URL, indexPrefix: config.TOPIC_PREFIX, logger: new Logger('ReadModels') });
            }
          },
        },
      ],
      exports: [READ_MODELS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.readModels.close();
  }
}
