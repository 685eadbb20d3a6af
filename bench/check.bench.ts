import http from 'node:http';
import { AddressInfo } from 'node:net';
import * as os from 'node:os';
import { BENCH_TEXT_MODEL, LoadResult, checkBody, machine, measureEmbedded, measureEmbeddedAgainstBare, writeResult } from './bench-support';
import { TRAFFIC_MIX, TrafficMix, mixCheckBody } from './traffic-mix';

/**
 * npm run bench:check — POST /v1/check in embedded mode (every decision durably
 * logged before the answer, and projected behind it) against a bare NestJS endpoint on the same adapter that
 * answers a response of the same size, for fastify and express, in one run, with the n-gram
 * text model (LOCAL_TEXT_MODEL, default ngram here); then on fastify with the embedding
 * model, against a bare endpoint that calls the same scorer before answering; then the
 * default configuration (the embedding model, its cache and early exits, every setting at
 * its default) against the same service with LOCAL_TEXT_MODEL=ngram, on the traffic mix of
 * traffic-mix.ts, alternated over BENCH_MIX_ROUNDS rounds (n-gram first in each).
 * Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_MIX_ROUNDS
 * (default 2), BENCH_ONLY=mix (only the traffic-mix rows).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const MIX_ROUNDS = Number(process.env.BENCH_MIX_ROUNDS ?? 2);
const body = checkBody;

/** The default configuration against LOCAL_TEXT_MODEL=ngram on the traffic mix, alternated. */
async function mixRows() {
  const mix = TrafficMix.load();
  const rounds: { ngram: LoadResult; embedding: LoadResult; answeredBy: Record<string, number> }[] = [];
  for (let round = 0; round < MIX_ROUNDS; round++) {
    const run = (textModel: 'ngram' | 'embedding') =>
      measureEmbedded({
        adapter: 'fastify',
        port: 4130,
        path: '/v1/check',
        body: mixCheckBody(mix.restart()),
        seconds: SECONDS,
        connections: CONNECTIONS,
        textModel,
        inspect: async (base) => answeredBy(await (await fetch(`${base}/metrics`)).text()),
      });
    const ngram = await run('ngram');
    const embedding = await run('embedding');
    rounds.push({ ngram: ngram.service, embedding: embedding.service, answeredBy: embedding.inspected as Record<string, number> });
  }
  return { mix: TRAFFIC_MIX, distinctTexts: mix.sizes(), rounds };
}

/** cds_text_answered_by{path="…"} n, from the service's /metrics. */
function answeredBy(metrics: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of metrics.matchAll(/^cds_text_answered_by\{[^}]*path="([^"]+)"[^}]*\} (\S+)$/gm)) out[m[1]] = Number(m[2]);
  return out;
}

async function main() {
  if (process.env.BENCH_ONLY === 'mix') return report([], await mixRows(), [], true);
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
  report(rows, all ? await mixRows() : null, signals, all);
}

function report(rows: any[], mix: Awaited<ReturnType<typeof mixRows>> | null, signals: Awaited<ReturnType<typeof measureSignals>>, all: boolean) {
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverage: os.loadavg().map((x) => +x.toFixed(2)),
    seconds: SECONDS,
    connections: CONNECTIONS,
    rows,
    mix,
    signals,
  };
  console.log(`machine: ${report.machine}; load average ${report.loadAverage.join(' ')}; autocannon -c ${CONNECTIONS} for ${SECONDS} s per run`);
  console.log('| adapter | text model | endpoint | req/s | p50 ms | p99 ms | non-2xx | check/bare |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const bare = r.textModel === 'embedding' ? 'bare + the same scorer' : 'bare';
    console.log(`| ${r.adapter} | ${r.textModel} | POST /v1/check | ${r.check.rps} | ${r.check.p50} | ${r.check.p99} | ${r.check.non2xx} | ${r.ratio} |`);
    console.log(
      `| ${r.adapter} | ${r.textModel} | ${bare} (same ${r.responseBytes}-byte response) | ${r.bare.rps} | ${r.bare.p50} | ${r.bare.p99} | ${r.bare.non2xx} | 1 |`,
    );
  }
  if (mix) {
    console.log(`\ntraffic mix per 100 checks: ${JSON.stringify(mix.mix)}; distinct texts ${JSON.stringify(mix.distinctTexts)}`);
    console.log('| round | text model | req/s | p50 ms | p99 ms | non-2xx | default ÷ n-gram | answered by (embedding) |');
    console.log('|---|---|---|---|---|---|---|---|');
    mix.rounds.forEach((r, i) => {
      console.log(`| ${i + 1} | ngram | ${r.ngram.rps} | ${r.ngram.p50} | ${r.ngram.p99} | ${r.ngram.non2xx} | 1 | |`);
      const by = Object.entries(r.answeredBy)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      console.log(
        `| ${i + 1} | embedding (default) | ${r.embedding.rps} | ${r.embedding.p50} | ${r.embedding.p99} | ${r.embedding.non2xx} | ${(r.embedding.rps / r.ngram.rps).toFixed(3)} | ${by} |`,
      );
    });
  }
  if (signals.length) {
    console.log(`\noperator signals (fastify, ${BENCH_TEXT_MODEL}, LOG_LEVEL=log, stdout read through a pipe), each variant twice, alternated:`);
    console.log('| variant | req/s (runs) | p50 ms | p99 ms | CPU µs a request | req/s / baseline |');
    console.log('|---|---|---|---|---|---|');
    const base = signals[0];
    for (const v of signals) {
      console.log(`| ${v.label} | ${v.rps} (${v.runs.map((r) => r.rps).join(', ')}) | ${v.p50} | ${v.p99} | ${v.cpuUs} | ${(v.rps / base.rps).toFixed(2)} |`);
    }
  }
  const name = process.env.BENCH_ONLY === 'mix' ? 'check-mix' : all ? 'check' : 'check-signals';
  console.log(`written to ${writeResult(name, report)}`);
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
