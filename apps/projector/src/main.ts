import 'reflect-metadata';
import { Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigModule, loadConfig, runMain } from '@cds/config';
import { EVENT_LOG, EventLog, EventLogModule } from '@cds/event-log';
import { createGeneration, ReadModelsModule } from '@cds/read-models';
import { ProjectorModule, ProjectorService, rebuild } from '@cds/projector';
import { MetricsModule } from '@cds/metrics';
import { configureLogging } from '@cds/logging';
import { startTracing } from '@cds/tracing';
import { startProbedContext } from '@cds/probes';

/**
 * The projector process.
 *   node dist/apps/projector/src/main.js            follow the log into the read models;
 *                                                   GET /health and /ready on HOST:PORT
 *   node dist/apps/projector/src/main.js --rebuild  rebuild every read model from offset 0
 *                                                   into a fresh generation, switch, exit
 * In embedded mode the projector runs inside the api process; a rebuild then needs the
 * service stopped (the file log is held by one process at a time). In distributed mode
 * (READ_MODELS=elasticsearch) a rebuild runs beside the live services: they keep
 * answering from the old generation until the alias swap.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const levels = configureLogging({ role: 'projector', format: config.LOG_FORMAT, level: config.LOG_LEVEL });
  startTracing(process.env, { 'cds.role': 'projector' });
  const logger = new Logger('Projector');
  if (process.argv.includes('--rebuild')) return rebuildReadModels(config, logger);
  if (config.READ_MODELS === 'sqlite') {
    logger.error('READ_MODELS=sqlite is served by the embedded api process (npm start); run this process with READ_MODELS=elasticsearch, or use --rebuild');
    process.exit(2);
  }
  @Module({
    imports: [ConfigModule.forRoot(config), EventLogModule.forRoot(), ReadModelsModule.forRoot(), MetricsModule.forRoot('projector'), ProjectorModule],
  })
  class ProjectorAppModule {}
  // the projector names its group after the read-model generation: its context waits for
  // Elasticsearch at start, behind probes that say so
  const { probes } = await startProbedContext(config, ProjectorAppModule, levels, (app) => {
    const projector = app.get(ProjectorService);
    return { projector: () => projector.ready() };
  });
  logger.log(`probes on http://${config.HOST}:${probes.port} (log=${config.EVENT_LOG}, read models=${config.READ_MODELS}, prefix=${config.TOPIC_PREFIX})`);
}

async function rebuildReadModels(config: AppConfig, logger: Logger): Promise<void> {
  @Module({ imports: [ConfigModule.forRoot(config), EventLogModule.forRoot()] })
  class RebuildModule {}
  const app = await NestFactory.createApplicationContext(RebuildModule, { logger: ['error', 'warn', 'log'] });
  const log = app.get<EventLog>(EVENT_LOG);
  const result = await rebuild(() => createGeneration(config, logger), log, logger);
  console.log(JSON.stringify(result));
  await app.close();
}

runMain(main);
