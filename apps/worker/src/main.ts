import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, ConfigModule, loadConfig } from '@cds/config';
import { EventLogModule } from '@cds/event-log';
import { WorkerModule } from '@cds/worker';

/** The worker process (distributed mode); in embedded mode it runs inside the api. */
async function main(): Promise<void> {
  const config = loadConfig();
  @Module({ imports: [ConfigModule.forRoot(config), EventLogModule.forRoot(), WorkerModule] })
  class WorkerAppModule {}
  const app = await NestFactory.createApplicationContext(WorkerAppModule);
  app.enableShutdownHooks();
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(err instanceof ConfigError ? 2 : 1);
});
