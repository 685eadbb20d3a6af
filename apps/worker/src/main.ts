import 'reflect-metadata';
import { Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, ConfigModule, loadConfig } from '@cds/config';
import { EVENT_LOG, EventLog, EventLogModule } from '@cds/event-log';
import { ReadModelsModule } from '@cds/read-models';
import { WebhookDispatcher, WebhookDispatchModule } from '@cds/webhook-dispatch';
import { ReadinessChecks, serveProbes, stopOnSignal } from '@cds/probes';
import { AsyncBatchModule, AsyncBatchRunner, VideoJobRunner } from '@cds/checks';
import { ProvidersModule } from '@cds/providers';
import { BlobStoreModule } from '@cds/blob-store';
import { Metrics, MetricsModule } from '@cds/metrics';
import { configureLogging } from '@cds/logging';
import { startTracing, tracing } from '@cds/tracing';

/** The worker process (distributed mode; in embedded mode it runs inside the api):
 * webhook dispatch and retries, async batches. GET /health and /ready on HOST:PORT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const levels = configureLogging({ role: 'worker', format: config.LOG_FORMAT, level: config.LOG_LEVEL });
  if (startTracing(process.env, { 'cds.role': 'worker' }).enabled) new Logger('Tracing').log('exporting spans over OTLP/HTTP (OTEL_EXPORTER_OTLP_*)');
  if (config.EVENT_LOG === 'file') {
    console.error('EVENT_LOG=file is served by the embedded api process (npm start): the file log has one owner; run this process with EVENT_LOG=kafka');
    process.exit(2);
  }
  @Module({
    imports: [
      ConfigModule.forRoot(config),
      EventLogModule.forRoot(),
      ReadModelsModule.forRoot(),
      ProvidersModule.forRoot(),
      BlobStoreModule.forRoot(),
      MetricsModule.forRoot('worker'),
      WebhookDispatchModule,
      AsyncBatchModule,
    ],
  })
  class WorkerAppModule {}
  // Probes first: while Elasticsearch is away at start the context waits for it, and
  // readiness says so meanwhile.
  let ready: ReadinessChecks = { readModels: async () => false };
  let metrics: Metrics | null = null;
  const probes = await serveProbes(
    config.HOST,
    config.PORT,
    () => ready,
    async () => {
      if (!metrics) throw new Error('starting');
      return metrics.render();
    },
  );
  const app = await NestFactory.createApplicationContext(WorkerAppModule, { logger: levels });
  metrics = app.get(Metrics);
  const dispatcher = app.get(WebhookDispatcher);
  const batches = app.get(AsyncBatchRunner);
  const videos = app.get(VideoJobRunner);
  const log = app.get<EventLog>(EVENT_LOG);
  ready = {
    eventLog: () => log.healthy(),
    webhookDispatch: async () => dispatcher.ready(),
    asyncBatches: async () => batches.ready(),
    videos: async () => videos.ready(),
  };
  stopOnSignal(async () => {
    await probes.close();
    await app.close();
    await tracing().shutdown();
  });
  new Logger('Worker').log(`probes on http://${config.HOST}:${probes.port} (log=${config.EVENT_LOG}, prefix=${config.TOPIC_PREFIX})`);
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(err instanceof ConfigError ? 2 : 1);
});
