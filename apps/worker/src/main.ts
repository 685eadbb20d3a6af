import 'reflect-metadata';
import { Logger, Module } from '@nestjs/common';
import { loadConfig, runMain } from '@cds/config';
import { EVENT_LOG, EventLog } from '@cds/event-log';
import { WebhookDispatcher } from '@cds/webhook-dispatch';
import { AsyncBatchRunner, VideoJobRunner } from '@cds/checks';
import { configureLogging } from '@cds/logging';
import { startTracing } from '@cds/tracing';
import { startProbedContext } from '@cds/probes';
import { serviceModules, WORKER_MODULES } from '@cds/bootstrap';

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
  @Module({ imports: [...serviceModules(config, 'worker'), ...WORKER_MODULES] })
  class WorkerAppModule {}
  const { probes } = await startProbedContext(config, WorkerAppModule, levels, (app) => {
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
  });
  new Logger('Worker').log(`probes on http://${config.HOST}:${probes.port} (log=${config.EVENT_LOG}, prefix=${config.TOPIC_PREFIX})`);
}

runMain(main);
