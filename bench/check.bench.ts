import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { load, LoadResult, machine, ROOT, startNode, stopProcess, waitHealthy, writeResult } from './bench-support';

/**
 * npm run bench:check — POST /v1/check in embedded mode (every decision durably
 * logged and projected) against a bare NestJS endpoint on the same adapter that
 * answers a response of the same size, for fastify and express, in one run.
 * Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ADMIN = 'bench-admin-key-0123456789abcdef';
const TEXTS = ['Have a great day, see you at the meeting tomorrow!', 'This product is terrible and the support team never answers.', 'I will find you and hurt you', 'Buy cheap watches now at our store'];
const body = (i: number) => JSON.stringify({ content: `${TEXTS[i % TEXTS.length]} #${i}`, policyId: 'default', metadata: { userId: `u${i % 100}` } });

async function runAdapter(adapter: 'fastify' | 'express', port: number): Promise<{ check: LoadResult; bare: LoadResult; responseBytes: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-bench-'));
  const svc = startNode(path.join(ROOT, 'dist/apps/api/src/main.js'), {
    PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN, HTTP_ADAPTER: adapter, RATE_LIMIT_PER_MINUTE: '10000000', LOG_LEVEL: 'warn',
  });
  let check: LoadResult;
  let sample: string;
  try {
    await waitHealthy(`http://127.0.0.1:${port}/health`);
    const warm = await fetch(`http://127.0.0.1:${port}/v1/check`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: body(0) });
    sample = await warm.text();
    await load('warmup', `http://127.0.0.1:${port}/v1/check`, { authorization: `Bearer ${ADMIN}` }, body, 2, CONNECTIONS);
    check = await load(`check (${adapter})`, `http://127.0.0.1:${port}/v1/check`, { authorization: `Bearer ${ADMIN}` }, body, SECONDS, CONNECTIONS);
  } finally {
    await stopProcess(svc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const bare = startNode(path.join(ROOT, 'dist/bench/bare-app.js'), { PORT: String(port + 1), HTTP_ADAPTER: adapter, BARE_RESPONSE: sample });
  let bareResult: LoadResult;
  try {
    await waitHealthy(`http://127.0.0.1:${port + 1}/bare`);
    await load('warmup', `http://127.0.0.1:${port + 1}/bare`, {}, body, 2, CONNECTIONS);
    bareResult = await load(`bare (${adapter})`, `http://127.0.0.1:${port + 1}/bare`, {}, body, SECONDS, CONNECTIONS);
  } finally {
    await stopProcess(bare);
  }
  return { check, bare: bareResult, responseBytes: Buffer.byteLength(sample) };
}

async function main() {
  const rows = [];
  for (const [i, adapter] of (['fastify', 'express'] as const).entries()) {
    const r = await runAdapter(adapter, 4100 + i * 10);
    rows.push({ adapter, ...r, ratio: +(r.check.rps / r.bare.rps).toFixed(2) });
  }
  const report = { date: new Date().toISOString(), machine: machine(), seconds: SECONDS, connections: CONNECTIONS, rows };
  console.log(`machine: ${report.machine}; autocannon -c ${CONNECTIONS} for ${SECONDS} s per run`);
  console.log('| adapter | endpoint | req/s | p50 ms | p99 ms | non-2xx | check/bare |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.adapter} | POST /v1/check | ${r.check.rps} | ${r.check.p50} | ${r.check.p99} | ${r.check.non2xx} | ${r.ratio} |`);
    console.log(`| ${r.adapter} | bare (same ${r.responseBytes}-byte response) | ${r.bare.rps} | ${r.bare.p50} | ${r.bare.p99} | ${r.bare.non2xx} | 1 |`);
  }
  console.log(`written to ${writeResult('check', report)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
