import { BENCH_TEXT_MODEL, checkBody, machine, measureEmbeddedAgainstBare, writeResult } from './bench-support';

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
  for (const [i, adapter] of (['fastify', 'express'] as const).entries()) {
    const r = await measureEmbeddedAgainstBare({ adapter, port: 4100 + i * 10, path: '/v1/check', body, seconds: SECONDS, connections: CONNECTIONS });
    rows.push({ adapter, textModel: BENCH_TEXT_MODEL, check: r.service, bare: r.bare, responseBytes: r.responseBytes, ratio: r.ratio });
  }
  // The embedding model: the service against a bare endpoint that calls the same scorer.
  const e = await measureEmbeddedAgainstBare({
    adapter: 'fastify',
    port: 4120,
    path: '/v1/check',
    body,
    seconds: SECONDS,
    connections: CONNECTIONS,
    textModel: 'embedding',
  });
  rows.push({ adapter: 'fastify', textModel: 'embedding', check: e.service, bare: e.bare, responseBytes: e.responseBytes, ratio: e.ratio });
  const report = { date: new Date().toISOString(), machine: machine(), seconds: SECONDS, connections: CONNECTIONS, rows };
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
  console.log(`written to ${writeResult('check', report)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
