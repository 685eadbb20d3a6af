import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkBody, LoadResult, machine, measureBare, measureEmbedded, writeResult } from './bench-support';

/**
 * npm run bench:floor — how far the steps no design of POST /v1/check can leave out
 * bring a bare endpoint down, beside the service, on fastify with the n-gram model, in one
 * run: the bare NestJS endpoint (same response); the same scoring the body's text with the
 * service's text model; the same appending a decision event of a check's size to a
 * FileEventLog and answering once it is durable (fsync, group commit); both; then the service's
 * POST /v1/check, which also authenticates, validates, applies the policy, keeps the
 * idempotency and rate limits, and projects every decision for the reads. Each row's
 * ratio is to the bare endpoint: the floor row bounds what `check ÷ bare` can reach on
 * this machine. The rows run in rounds, in an order that rotates, and each round's ratios
 * are to that round's bare endpoint. Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS
 * (default 50), BENCH_ROUNDS (default 3).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const body = checkBody;

/** Rounds of every row; the order rotates from round to round. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Row {
  endpoint: string;
  run: (round: number) => Promise<LoadResult>;
}

async function main() {
  const common = { adapter: 'fastify' as const, body, seconds: SECONDS, connections: CONNECTIONS };
  let sample = '';
  const service = async () => {
    const r = await measureEmbedded({ ...common, port: 4140, path: '/v1/check', textModel: 'ngram' });
    sample = r.sample;
    return r.service;
  };
  // The bare endpoints answer the service's own answer: one short run of it gives that
  // before the first round, whichever row the round starts with.
  sample = (await measureEmbedded({ ...common, seconds: 1, port: 4140, path: '/v1/check', textModel: 'ngram' })).sample;
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-floor-'));
  const bare = (port: number, env: Record<string, string>) => (round: number) =>
    measureBare({
      ...common,
      port,
      label: `port ${port}`,
      env: { BARE_RESPONSE: sample, ...env, ...(env.BARE_LOG_DIR ? { BARE_LOG_DIR: `${env.BARE_LOG_DIR}-${round}` } : {}) },
    });
  const rows: Row[] = [
    { endpoint: 'bare (same response)', run: bare(4141, {}) },
    { endpoint: 'bare + the n-gram scorer', run: bare(4142, { BARE_SCORER: 'ngram' }) },
    { endpoint: 'bare + the durable append of a decision event', run: bare(4143, { BARE_LOG_DIR: path.join(logDir, 'append') }) },
    {
      endpoint: 'bare + the scorer + the durable append of its decision event',
      run: bare(4144, { BARE_SCORER: 'ngram', BARE_LOG_DIR: path.join(logDir, 'both') }),
    },
    { endpoint: 'POST /v1/check', run: service },
  ];
  const results: LoadResult[][] = rows.map(() => []);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < rows.length; k++) {
        const i = (k + round) % rows.length;
        results[i].push(await rows[i].run(round));
      }
    }
  } finally {
    fs.rmSync(logDir, { recursive: true, force: true });
  }
  // Each round's ratio is to that round's bare endpoint: the machine's speed moves between rounds.
  const ratios = rows.map((_, i) => results[i].map((r, round) => +(r.rps / results[0][round].rps).toFixed(2)));
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    seconds: SECONDS,
    connections: CONNECTIONS,
    rounds: ROUNDS,
    responseBytes: Buffer.byteLength(sample),
    rows: rows.map((r, i) => ({
      endpoint: r.endpoint,
      rps: results[i].map((x) => x.rps),
      cpuUsPerRequest: results[i].map((x) => x.cpuUsPerRequest ?? null),
      p50: results[i].map((x) => x.p50),
      non2xx: results[i].reduce((n, x) => n + x.non2xx, 0),
      ratio: ratios[i],
      medianRatio: median(ratios[i]),
    })),
  };
  console.log(`machine: ${report.machine}; fastify, n-gram text model; autocannon -c ${CONNECTIONS} for ${SECONDS} s per run; ${ROUNDS} rounds`);
  console.log('| endpoint | req/s by round | server CPU µs/request by round | non-2xx | ÷ bare by round | median ÷ bare |');
  console.log('|---|---|---|---|---|---|');
  for (const r of report.rows) {
    console.log(`| ${r.endpoint} | ${r.rps.join(', ')} | ${r.cpuUsPerRequest.join(', ')} | ${r.non2xx} | ${r.ratio.join(', ')} | ${r.medianRatio} |`);
  }
  console.log(`written to ${writeResult('floor', report)}`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : +((s[s.length / 2 - 1] + s[s.length / 2]) / 2).toFixed(2);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
