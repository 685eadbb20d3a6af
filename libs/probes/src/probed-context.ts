import { INestApplicationContext, Type } from '@nestjs/common';
import { NestApplicationContextOptions } from '@nestjs/common/interfaces/nest-application-context-options.interface';
import { NestFactory } from '@nestjs/core';
import { Metrics } from '@cds/metrics';
import { tracing } from '@cds/tracing';
import { ProbeServer, ReadinessChecks, serveProbes, stopOnSignal } from './probe-server';

/** Where the probes listen: the process's configuration (AppConfig). */
export interface ProbeAddress {
  HOST: string;
  PORT: number;
}

/**
 * A process without an HTTP api (projector, worker): its probes listen first, so that while
 * Elasticsearch is away at start and the context waits for it, readiness says so
 * (`readModels: false`); then the Nest context of `module` starts and readiness becomes
 * `readiness(context)`. /metrics renders the context's Metrics. A signal closes the probes,
 * then the context, then flushes tracing.
 */
export async function startProbedContext(
  address: ProbeAddress,
  module: Type<unknown>,
  logger: NestApplicationContextOptions['logger'],
  readiness: (app: INestApplicationContext) => ReadinessChecks,
): Promise<{ app: INestApplicationContext; probes: ProbeServer }> {
  let ready: ReadinessChecks = { readModels: async () => false };
  let app: INestApplicationContext | null = null;
  const probes = await serveProbes(
    address.HOST,
    address.PORT,
    () => ready,
    async () => {
      if (!app) throw new Error('starting');
      return app.get(Metrics).render();
    },
  );
  const started = await NestFactory.createApplicationContext(module, { logger });
  app = started;
  ready = readiness(started);
  stopOnSignal(async () => {
    await probes.close();
    await started.close();
    await tracing().shutdown();
  });
  return { app: started, probes };
}
