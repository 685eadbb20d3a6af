import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkBody, machine, measureEmbedded, ROOT, writeResult } from './bench-support';

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
  const env = process.env.AB_ENV ? (JSON.parse(process.env.AB_ENV) as Record<string, string>) : {};
  const port = 4700 + Math.floor(Math.random() * 200);
  const r = await measureEmbedded({
    adapter: 'fastify',
    port,
    path: '/v1/check',
    body: checkBody,
    seconds: SECONDS,
    connections: CONNECTIONS,
    textModel: 'ngram',
    env,
    main,
  });
  return r.service.rps;
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
