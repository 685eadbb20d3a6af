import 'reflect-metadata';
import { Logger, Module } from '@nestjs/common';
import { ConfigError, ConfigModule, loadConfig } from '@cds/config';
import { EVENT_LOG, EventLog, EventLogModule } from '@cds/event-log';
import { ReadModelsModule } from '@cds/read-models';
import { WebhookDispatcher, WebhookDispatchModule } from '@cds/webhook-dispatch';
import { startProbedContext } from '@cds/probes';
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
  const { probes } = await startProbedContext({
    host: config.HOST,
    port: config.PORT,
    module: WorkerAppModule,
    logger: levels,
    readiness: (app) => {
      const dispatcher = app.get(WebhookDispatcher);
      const batches = app.get(AsyncBatchRunner);
      const videos = app.get(VideoJobRunner);
      const log = app.get<EventLog>(EVENT_LOG);
      return {
        eventLog: () => log.healthy(),
        webhookDispatch: async () => dispatcher.ready(),
        asyncBatches: async () => batches.ready(),
        videos: async () => videos.ready(),
      };
    },
    metrics: (app) => app.get(Metrics),
    onStop: () => tracing().shutdown(),
  });
  new Logger('Worker').log(`probes on http://${config.HOST}:${probes.port} (log=${config.EVENT_LOG}, prefix=${config.TOPIC_PREFIX})`);
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(err instanceof ConfigError ? 2 : 1);
});
