import { INestApplicationContext, Type } from '@nestjs/common';
import { NestApplicationContextOptions } from '@nestjs/common/interfaces/nest-application-context-options.interface';
import { NestFactory } from '@nestjs/core';
import { ProbeServer, ReadinessChecks, serveProbes, stopOnSignal } from './probe-server';

export interface ProbedContextOptions {
  host: string;
  port: number;
  /** the process's root module */
  module: Type<unknown>;
  logger: NestApplicationContextOptions['logger'];
  /** readiness once the context has started */
  readiness: (app: INestApplicationContext) => ReadinessChecks;
  /** the process's Prometheus metrics, from its context */
  metrics: (app: INestApplicationContext) => { render(): Promise<{ contentType: string; body: string }> };
  /** after the probes and the context are closed on a signal (tracing's flush) */
  onStop: () => Promise<void>;
}

/**
 * A process without an HTTP api (projector, worker): its probes listen first, so that while
 * Elasticsearch is away at start and the context waits for it, readiness says so
 * (`readModels: false`); then the Nest context starts and readiness becomes the process's
 * own checks. A signal closes the probes, then the context, then `onStop`.
 */
export async function startProbedContext(o: ProbedContextOptions): Promise<{ app: INestApplicationContext; probes: ProbeServer }> {
  let ready: ReadinessChecks = { readModels: async () => false };
  let app: INestApplicationContext | null = null;
  const probes = await serveProbes(
    o.host,
    o.port,
    () => ready,
    async () => {
      if (!app) throw new Error('starting');
      return o.metrics(app).render();
    },
  );
  const started = await NestFactory.createApplicationContext(o.module, { logger: o.logger });
  app = started;
  ready = o.readiness(started);
  stopOnSignal(async () => {
    await probes.close();
    await started.close();
    await o.onStop();
  });
  return { app: started, probes };
}
