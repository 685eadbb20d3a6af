import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import * as path from 'node:path';
import { AppConfig } from '@cds/config';
import { EVENT_LOG, EventLog } from '@cds/event-log';
import { READ_MODELS, ReadModels } from './read-models.port';
import { SqliteReadModels } from './sqlite/sqlite-read-models.adapter';
import { openElasticsearchWithRetry } from './elasticsearch/open-with-retry';
import { DeferredReadModels } from './elasticsearch/deferred-read-models';
import { ConsistentReadModels, LogEnds } from './consistent-reads';
import { GenerationLoad } from './generations.port';
import { SqliteGenerationLoad } from './sqlite/sqlite-generation-load';
import { ElasticsearchReadModels } from './elasticsearch/elasticsearch-read-models.adapter';

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
          // A broker that does not tell a topic's end within a second is away: nothing can
          // have been written since, so a read goes on with what is projected.
          provide: LogEnds,
          inject: [AppConfig, EVENT_LOG],
          useFactory: (config: AppConfig, log: EventLog) => new LogEnds(log, Math.min(config.PROJECTION_WAIT_MS, 1000)),
        },
        {
          provide: READ_MODELS,
          inject: [AppConfig, LogEnds],
          useFactory: async (config: AppConfig, ends: LogEnds): Promise<ReadModels> => {
            // Writes answer once durable; queries wait for the log's end (consistent-reads).
            const logger = new Logger('ReadModels');
            return new ConsistentReadModels(await openReadModels(config), ends, {
              waitMs: config.PROJECTION_WAIT_MS,
              onBehind: (topics, reason) => logger.warn(`a query of ${topics.join(', ')} read what was projected: ${reason}`),
            });
          },
        },
      ],
      exports: [READ_MODELS, LogEnds],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.readModels.close();
  }
}

async function openReadModels(config: AppConfig): Promise<ReadModels> {
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
      return new DeferredReadModels(opening, {
        waitMs: config.PROJECTION_WAIT_MS,
        describe: `Elasticsearch at ${config.ELASTICSEARCH_URL}`,
        abort: () => abort.abort(),
      });
    }
  }
}

/** A fresh, unserved generation of the configured read models, to load (a rebuild). */
export async function createGeneration(config: AppConfig, logger: Pick<Logger, 'log' | 'warn' | 'error'>): Promise<GenerationLoad> {
  switch (config.READ_MODELS) {
    case 'sqlite':
      return SqliteGenerationLoad.create(path.join(config.DATA_DIR, 'readmodels'));
    case 'elasticsearch':
      return ElasticsearchReadModels.createGenerationLoad({ node: config.ELASTICSEARCH_URL, indexPrefix: config.TOPIC_PREFIX, logger });
  }
}
