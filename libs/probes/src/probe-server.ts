import { Logger } from '@nestjs/common';
import * as http from 'node:http';

/** One dependency of a process, as readiness reports it. */
export type ReadinessChecks = Record<string, () => Promise<boolean>>;

export interface ProbeServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Liveness and readiness for the processes without an HTTP api (projector, worker), so
 * orchestrators and the test harness probe them the way they probe the api:
 * `GET /health` -> 200 `{status: "ok"}`; `GET /ready` -> 200, or 503 naming the failing
 * dependency, e.g. `{status: "not_ready", eventLog: false, readModels: true}`; `GET /metrics`
 * -> the process's Prometheus metrics when given. Pass a
 * function to change the checks as the process starts (probes listen before the app).
 */
export function serveProbes(
  host: string,
  port: number,
  checksNow: ReadinessChecks | (() => ReadinessChecks),
  metrics?: () => Promise<{ contentType: string; body: string }>,
): Promise<ProbeServer> {
  const server = http.createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') return reply(405, { error: 'Method Not Allowed', code: 'METHOD_NOT_ALLOWED', details: 'GET only' });
    if (req.url === '/health') return reply(200, { status: 'ok' });
    if (req.url === '/metrics' && metrics) {
      void metrics().then(
        (m) => {
          res.writeHead(200, { 'content-type': m.contentType });
          res.end(m.body);
        },
        () => reply(503, { error: 'Service Unavailable', code: 'METRICS_UNAVAILABLE', details: 'metrics could not be collected' }),
      );
      return;
    }
    if (req.url !== '/ready') return reply(404, { error: 'Not Found', code: 'NOT_FOUND', details: `${req.url} is not a probe` });
    const checks = typeof checksNow === 'function' ? checksNow() : checksNow;
    const names = Object.keys(checks);
    void Promise.all(names.map((n) => checks[n]().catch(() => false))).then((results) => {
      const ready = results.every(Boolean);
      reply(ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', ...Object.fromEntries(names.map((n, i) => [n, results[i]])) });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** SIGTERM / SIGINT: run `stop` once (shutdown hooks, leave consumer groups), then exit 0;
 * a second signal, or a stop that throws, exits at once. */
export function stopOnSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    const logger = new Logger('Shutdown');
    logger.log(`${signal}: shutting down`);
    stop().then(
      () => {
        logger.log('stopped');
        process.exit(0);
      },
      (err: Error) => {
        logger.error(`shutdown failed: ${err.stack ?? err.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
