import 'reflect-metadata';
import { Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, ConfigModule, loadConfig } from '@cds/config';
import { EVENT_LOG, EventLog, EventLogModule } from '@cds/event-log';
import { ReadModelsModule } from '@cds/read-models';
import { ProjectorModule, rebuildSqlite } from '@cds/projector';

/**
 * The projector process.
 *   node dist/apps/projector/src/main.js            follow the log into the read models
 *   node dist/apps/projector/src/main.js --rebuild  rebuild every read model from offset 0
 *                                                   into a fresh generation, switch, exit
 * In embedded mode the projector runs inside the api process; a rebuild then needs the
 * service stopped (the file log is held by one process at a time).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const rebuild = process.argv.includes('--rebuild');
  const logger = new Logger('Projector');
  if (rebuild) {
    @Module({ imports: [ConfigModule.forRoot(config), EventLogModule.forRoot()] })
    class RebuildModule {}
    const app = await NestFactory.createApplicationContext(RebuildModule, { logger: ['error', 'warn', 'log'] });
    const log = app.get<EventLog>(EVENT_LOG);
    const result = await rebuildSqlite(config, log, logger);
    console.log(JSON.stringify(result));
    await app.close();
    return;
  }
  if (config.READ_MODELS === 'sqlite') {
    logger.error('READ_MODELS=sqlite is served by the embedded api process (npm start); run this process with READ_MODELS=elasticsearch, or use --rebuild');
    process.exit(2);
  }
  @Module({ imports: [ConfigModule.forRoot(config), EventLogModule.forRoot(), ReadModelsModule.forRoot(), ProjectorModule] })
  class ProjectorAppModule {}
  const app = await NestFactory.createApplicationContext(ProjectorAppModule);
  app.enableShutdownHooks();
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(err instanceof ConfigError ? 2 : 1);
});
