import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig, runMain } from '@cds/config';
import { configureLogging } from '@cds/logging';
import { stopOnSignal } from '@cds/probes';
import { startTracing, tracing } from '@cds/tracing';
import { AppModule } from './app.module';
import { createHttpApp, drainAndClose } from './http/http-adapter';
import { AdminKey } from './keys/admin-key';
import { buildOpenApiDocument, serveOpenApi } from './openapi/openapi';

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.ROLE !== 'all' && config.ROLE !== 'api') {
    console.error(`ROLE=${config.ROLE}: the api process runs ROLE=all (embedded) or ROLE=api`);
    process.exit(2);
  }
  if (config.ROLE === 'api' && (config.READ_MODELS === 'sqlite' || config.EVENT_LOG === 'file')) {
    // A replica without the projector relies on a log and read models shared with it.
    console.error('ROLE=api needs EVENT_LOG=kafka and READ_MODELS=elasticsearch: the embedded file log and SQLite read models live in one ROLE=all process');
    process.exit(2);
  }
  configureLogging({ role: config.ROLE, format: config.LOG_FORMAT, level: config.LOG_LEVEL });
  // OpenTelemetry is loaded only when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT).
  if (startTracing(process.env, { 'cds.role': config.ROLE }).enabled) new Logger('Tracing').log('exporting spans over OTLP/HTTP (OTEL_EXPORTER_OTLP_*)');
  const admin = AdminKey.fromConfig(config);
  const app = await createHttpApp(AppModule.forRoot(config, admin), config, new Logger('Nest'));
  // GET /v1/openapi.json and Swagger UI at /docs, public like /health.
  serveOpenApi(app, buildOpenApiDocument(app));
  await app.listen(config.PORT, config.HOST);
  // SIGTERM: stop accepting, close idle keep-alive connections, let what is in flight
  // answer (within SHUTDOWN_GRACE_MS), run the shutdown hooks (consumers leave their
  // groups, the log closes), exit 0.
  stopOnSignal(async () => {
    await drainAndClose(app, config.SHUTDOWN_GRACE_MS);
    await tracing().shutdown();
  });
  new Logger('Main').log(
    `listening on http://${config.HOST}:${config.PORT} (http=${config.HTTP_ADAPTER}, log=${config.EVENT_LOG}, read models=${config.READ_MODELS}, role=${config.ROLE})`,
  );
}

runMain(main);
