import http from 'node:http';
import { AddressInfo } from 'node:net';
import { BENCH_TEXT_MODEL, checkBody, LoadResult, machine, measureEmbedded, measureEmbeddedAgainstBare, writeResult } from './bench-support';

/**
 * npm run bench:check — POST /v1/check in embedded mode (every decision durably
 * logged before the answer, and projected behind it) against a bare NestJS endpoint on the same adapter that
 * answers a response of the same size, for fastify and express, in one run, with the n-gram
 * text model (LOCAL_TEXT_MODEL, default ngram here); then on fastify with the embedding
 * model, against a bare endpoint that calls the same scorer before answering.
 * Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const body = checkBody;

async function main() {
  const rows = [];
  // BENCH_CHECK_PARTS=signals: only the operator signals' table (the last part)
  const all = process.env.BENCH_CHECK_PARTS !== 'signals';
  for (const [i, adapter] of (all ? (['fastify', 'express'] as const) : []).entries()) {
    const r = await measureEmbeddedAgainstBare({ adapter, port: 4100 + i * 10, path: '/v1/check', body, seconds: SECONDS, connections: CONNECTIONS });
    rows.push({ adapter, textModel: BENCH_TEXT_MODEL, check: r.service, bare: r.bare, responseBytes: r.responseBytes, ratio: r.ratio });
  }
  // The embedding model: the service against a bare endpoint that calls the same scorer.
  const e = all
    ? await measureEmbeddedAgainstBare({
        adapter: 'fastify',
        port: 4120,
        path: '/v1/check',
        body,
        seconds: SECONDS,
        connections: CONNECTIONS,
        textModel: 'embedding',
      })
    : null;
  if (e) rows.push({ adapter: 'fastify', textModel: 'embedding', check: e.service, bare: e.bare, responseBytes: e.responseBytes, ratio: e.ratio });
  const signals = await measureSignals();
  const report = { date: new Date().toISOString(), machine: machine(), seconds: SECONDS, connections: CONNECTIONS, rows, signals };
  console.log(`machine: ${report.machine}; autocannon -c ${CONNECTIONS} for ${SECONDS} s per run`);
  console.log('| adapter | text model | endpoint | req/s | p50 ms | p99 ms | non-2xx | check/bare |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const bare = r.textModel === 'embedding' ? 'bare + the same scorer' : 'bare';
    console.log(`| ${r.adapter} | ${r.textModel} | POST /v1/check | ${r.check.rps} | ${r.check.p50} | ${r.check.p99} | ${r.check.non2xx} | ${r.ratio} |`);
    console.log(
      `| ${r.adapter} | ${r.textModel} | ${bare} (same ${r.responseBytes}-byte response) | ${r.bare.rps} | ${r.bare.p50} | ${r.bare.p99} | ${r.bare.non2xx} | 1 |`,
    );
  }
  console.log(`\noperator signals (fastify, ${BENCH_TEXT_MODEL}, LOG_LEVEL=log, stdout read through a pipe), each variant twice, alternated:`);
  console.log('| variant | req/s (runs) | p50 ms | p99 ms | CPU µs a request | req/s / baseline |');
  console.log('|---|---|---|---|---|---|');
  const base = signals[0];
  for (const v of signals) {
    console.log(`| ${v.label} | ${v.rps} (${v.runs.map((r) => r.rps).join(', ')}) | ${v.p50} | ${v.p99} | ${v.cpuUs} | ${(v.rps / base.rps).toFixed(2)} |`);
  }
  console.log(`written to ${writeResult(all ? 'check' : 'check-signals', report)}`);
}

/** What the operator's signals cost: access lines on, and tracing exporting, each beside
 * both off (the baseline). Each variant runs twice, the variants in turn (A B C A B C), so
 * a drift of the machine's load falls on all; its figure is the mean of its runs. */
async function measureSignals(): Promise<{ label: string; rps: number; p50: number; p99: number; cpuUs: number; runs: LoadResult[] }[]> {
  // An OTLP/HTTP endpoint that takes the spans and drops them (a collector's cost is not ours).
  const sink = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  const variants: { label: string; env: Record<string, string> }[] = [
    { label: 'access lines off, tracing off (baseline)', env: { ACCESS_LOG: 'off' } },
    { label: 'access lines on', env: { ACCESS_LOG: 'on' } },
    { label: 'tracing exporting (OTLP/HTTP, every request sampled)', env: { ACCESS_LOG: 'off', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } },
  ];
  const runs = new Map<string, LoadResult[]>(variants.map((v) => [v.label, []]));
  for (let round = 0; round < 2; round++) {
    for (const v of variants) {
      const { service } = await measureEmbedded({
        adapter: 'fastify',
        port: 4130,
        path: '/v1/check',
        body,
        seconds: SECONDS,
        connections: CONNECTIONS,
        env: { LOG_LEVEL: 'log', LOG_FORMAT: 'json', ...v.env },
        drainStdout: true,
      });
      runs.get(v.label)!.push(service);
    }
  }
  sink.close();
  const mean = (xs: number[]) => +(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1);
  return variants.map((v) => {
    const r = runs.get(v.label)!;
    return {
      label: v.label,
      rps: mean(r.map((x) => x.rps)),
      p50: mean(r.map((x) => x.p50)),
      p99: mean(r.map((x) => x.p99)),
      cpuUs: mean(r.map((x) => x.cpuUsPerRequest ?? NaN)),
      runs: r,
    };
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
