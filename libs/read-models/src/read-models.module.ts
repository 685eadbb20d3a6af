import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import * as path from 'node:path';
import { AppConfig } from '@cds/config';
import { READ_MODELS, ReadModels } from './read-models.port';
import { SqliteReadModels } from './sqlite/sqlite-read-models.adapter';
import { openElasticsearchWithRetry } from './elasticsearch/open-with-retry';
import { deferredReadModels } from './elasticsearch/deferred-read-models';

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
              case 'elasticsearch': {
                const abort = new AbortController();
                const opening = openElasticsearchWithRetry({
                  node: config.ELASTICSEARCH_URL,
                  indexPrefix: config.TOPIC_PREFIX,
                  logger: new Logger('ReadModels'),
                  signal: abort.signal,
                });
                // The projector writes and names its group after the generation: it starts
                // once the node is usable. An api replica listens at once and says not ready.
                if (config.ROLE !== 'api') return opening;
                return deferredReadModels(opening, {
                  waitMs: config.PROJECTION_WAIT_MS,
                  describe: `Elasticsearch at ${config.ELASTICSEARCH_URL}`,
                  abort: () => abort.abort(),
                });
              }
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
