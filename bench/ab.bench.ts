import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BENCH_ADMIN_KEY, checkBody, load, machine, ROOT, startNode, stopProcess, waitHealthy, writeResult } from './bench-support';

/**
 * npm run bench:ab — two builds of the service, A and B, under the same load, alternated
 * round by round (A then B), so a mechanism can be weighed end to end: build B from a
 * copy of the tree with the mechanism taken out (or switched off by an env var only that
 * copy reads) and compare. POST /v1/check in embedded mode, fastify, the n-gram model,
 * 50 connections, each decision durably logged and projected, as bench:check.
 * Env: AB_B (required: B's dist/apps/api/src/main.js), AB_A (default this tree's build),
 * AB_ENV (JSON of env vars for both), AB_ROUNDS (default 3), BENCH_SECONDS (default 8).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.AB_ROUNDS ?? 3);
const CONNECTIONS = 50;

async function run(main: string): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-bench-ab-'));
  const port = 4700 + Math.floor(Math.random() * 200);
  const base = `http://127.0.0.1:${port}`;
  const env = process.env.AB_ENV ? (JSON.parse(process.env.AB_ENV) as Record<string, string>) : {};
  const svc = startNode(main, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_API_KEY: BENCH_ADMIN_KEY,
    RATE_LIMIT_PER_MINUTE: '10000000',
    LOG_LEVEL: 'warn',
    LOCAL_TEXT_MODEL: 'ngram',
    ...env,
  });
  const auth = { authorization: `Bearer ${BENCH_ADMIN_KEY}` };
  try {
    await waitHealthy(`${base}/health`);
    const warm = await fetch(`${base}/v1/check`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: checkBody(0) });
    if (!warm.ok) throw new Error(`${main}: POST /v1/check answered ${warm.status}: ${await warm.text()}`);
    await load('warmup', `${base}/v1/check`, auth, checkBody, 2, CONNECTIONS);
    return (await load('POST /v1/check', `${base}/v1/check`, auth, checkBody, SECONDS, CONNECTIONS, svc.pid)).rps;
  } finally {
    await stopProcess(svc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const builds = { A: process.env.AB_A ?? path.join(ROOT, 'dist/apps/api/src/main.js'), B: process.env.AB_B };
  if (!builds.B || !fs.existsSync(builds.B)) throw new Error('AB_B must name the other build: its dist/apps/api/src/main.js');
  const rps: Record<'A' | 'B', number[]> = { A: [], B: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rps.A.push(await run(builds.A));
    rps.B.push(await run(builds.B!));
    console.log(`round ${round + 1}: A ${rps.A[round]} req/s, B ${rps.B[round]} req/s`);
  }
  const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
  const ratio = +(mean(rps.B) / mean(rps.A)).toFixed(3);
  console.log(
    `machine: ${machine()}; load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  console.log(`A ${builds.A}: ${rps.A.join(', ')} req/s\nB ${builds.B}: ${rps.B.join(', ')} req/s\nB ÷ A (means): ${ratio}`);
  console.log(
    `written to ${writeResult('ab', { date: new Date().toISOString(), machine: machine(), builds, env: process.env.AB_ENV ?? null, seconds: SECONDS, rps, ratio })}`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
