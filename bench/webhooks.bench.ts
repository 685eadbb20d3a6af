import * as fs from 'node:fs';
import { createServer, request } from 'node:http';
import { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { BENCH_ADMIN_KEY, load, machine, ROOT, startNode, stopProcess, waitHealthy, writeResult } from './bench-support';

/**
 * npm run bench:webhooks — webhook deliveries in embedded mode: checks are loaded with
 * autocannon, every decision.created is delivered (signed, through the egress guard,
 * each attempt recorded on the log) to a local receiver. Reports deliveries per second
 * and the delay from the event's append (its createdAt) to its arrival, p50/p99, against
 * a bare loop of HTTP POSTs of the same size to the same receiver, in one run.
 * A second phase sends checks at a fixed rate the dispatcher keeps up with
 * (BENCH_PACED_RATE per second), so its delays are the dispatch path's own, not queueing.
 * Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_PACED_RATE (200).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 200);
/** The dispatcher makes at most 32 attempts at once; the bare loop gets as many. */
const BARE_CONCURRENCY = 32;
const PORT = 4300;

interface Arrival {
  at: number;
  createdAt: number;
  bytes: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function startReceiver(arrivals: Arrival[]) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      try {
        const body = JSON.parse(raw.toString('utf8'));
        arrivals.push({ at: Date.now(), createdAt: Date.parse(body.createdAt), bytes: raw.length });
      } catch {
        /* not a delivery */
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

/** The baseline: POST the same bytes in a loop with BARE_CONCURRENCY in flight. */
async function bareLoop(url: string, body: string, seconds: number): Promise<{ count: number; latencies: number[] }> {
  const u = new URL(url);
  const deadline = Date.now() + seconds * 1000;
  const latencies: number[] = [];
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const started = performance.now();
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - started);
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: BARE_CONCURRENCY }, async () => {
      while (Date.now() < deadline) await one();
    }),
  );
  return { count: latencies.length, latencies };
}

/** POST /v1/check at `rate` per second for `seconds`; how many were answered 200. */
async function pacedChecks(url: string, headers: Record<string, string>, body: (i: number) => string, rate: number, seconds: number): Promise<number> {
  const end = Date.now() + seconds * 1000;
  const answers: Promise<boolean>[] = [];
  let next = Date.now();
  for (let i = 0; Date.now() < end; i++) {
    answers.push(
      fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: body(i) }).then(
        async (r) => (await r.text(), r.status === 200),
        () => false,
      ),
    );
    next += 1000 / rate;
    const wait = next - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  return (await Promise.all(answers)).filter(Boolean).length;
}

async function waitArrivals(arrivals: Arrival[], since: number, count: number): Promise<Arrival[]> {
  const deadline = Date.now() + 120_000;
  const of = () => arrivals.filter((a) => a.createdAt >= since);
  while (of().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (of().length < count) throw new Error(`only ${of().length} of ${count} deliveries arrived`);
  return of();
}

async function main() {
  const arrivals: Arrival[] = [];
  const receiver = await startReceiver(arrivals);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-bench-webhooks-'));
  const base = `http://127.0.0.1:${PORT}`;
  const auth = { authorization: `Bearer ${BENCH_ADMIN_KEY}` };
  const svc = startNode(path.join(ROOT, 'dist/apps/api/src/main.js'), {
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_API_KEY: BENCH_ADMIN_KEY,
    RATE_LIMIT_PER_MINUTE: '10000000',
    LOG_LEVEL: 'warn',
    EGRESS_ALLOW_LOOPBACK: 'true',
  });
  let checks = 0;
  let sampleBody = '';
  let firstAt = 0;
  let lastAt = 0;
  let delays: number[] = [];
  let paced = { rate: PACED_RATE, checks: 0, delayP50: NaN, delayP99: NaN };
  try {
    await waitHealthy(`${base}/health`);
    const hook = await fetch(`${base}/v1/webhooks`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['decision.created'] }),
    });
    if (hook.status !== 201) throw new Error(`POST /v1/webhooks answered ${hook.status}: ${await hook.text()}`);
    const body = (i: number) => JSON.stringify({ content: `bench message ${i}: see you at the meeting tomorrow`, policyId: 'default' });
    const started = Date.now();
    const result = await load('checks', `${base}/v1/check`, auth, body, SECONDS, CONNECTIONS);
    checks = result.requests - result.non2xx - result.errors;
    // Every acknowledged decision must arrive; wait for the stragglers (bounded).
    const deadline = Date.now() + 120_000;
    while (arrivals.length < checks && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (arrivals.length < checks) throw new Error(`only ${arrivals.length} of ${checks} deliveries arrived`);
    const delivered = arrivals.filter((a) => a.at >= started);
    firstAt = Math.min(...delivered.map((a) => a.createdAt));
    lastAt = Math.max(...delivered.map((a) => a.at));
    delays = delivered.map((a) => a.at - a.createdAt).sort((a, b) => a - b);
    // Paced: below the dispatcher's capacity, so nothing queues.
    const pacedStart = Date.now();
    const pacedOk = await pacedChecks(`${base}/v1/check`, auth, (i) => body(1_000_000 + i), PACED_RATE, SECONDS);
    const pacedDelays = (await waitArrivals(arrivals, pacedStart, pacedOk)).map((a) => a.at - a.createdAt).sort((a, b) => a - b);
    paced = { rate: PACED_RATE, checks: pacedOk, delayP50: percentile(pacedDelays, 50), delayP99: percentile(pacedDelays, 99) };
    sampleBody = JSON.stringify({
      id: 'evt_'.padEnd(36, '0'),
      type: 'decision.created',
      createdAt: new Date().toISOString(),
      data: { pad: 'x'.repeat(Math.max(0, Math.round(delivered.reduce((s, a) => s + a.bytes, 0) / delivered.length) - 120)) },
    });
  } finally {
    await stopProcess(svc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const webhooks = {
    delivered: delays.length,
    perSecond: Math.round(delays.length / ((lastAt - firstAt) / 1000)),
    delayP50: percentile(delays, 50),
    delayP99: percentile(delays, 99),
  };
  arrivals.length = 0;
  const bare = await bareLoop(receiver.url, sampleBody, SECONDS);
  receiver.server.close();
  const bareLat = bare.latencies.sort((a, b) => a - b);
  const bareResult = {
    posted: bare.count,
    perSecond: Math.round(bare.count / SECONDS),
    latencyP50: +percentile(bareLat, 50).toFixed(2),
    latencyP99: +percentile(bareLat, 99).toFixed(2),
  };
  const ratio = +(webhooks.perSecond / bareResult.perSecond).toFixed(2);
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    seconds: SECONDS,
    connections: CONNECTIONS,
    checks,
    webhooks,
    paced,
    bare: bareResult,
    ratio,
  };
  console.log(`machine: ${report.machine}; checks under autocannon -c ${CONNECTIONS} for ${SECONDS} s; bare loop ${BARE_CONCURRENCY} in flight`);
  console.log('| path | deliveries/s | p50 ms | p99 ms | count | vs bare |');
  console.log('|---|---|---|---|---|---|');
  console.log(
    `| webhook dispatch, saturated (append -> arrival) | ${webhooks.perSecond} | ${webhooks.delayP50} | ${webhooks.delayP99} | ${webhooks.delivered} | ${ratio} |`,
  );
  console.log(`| webhook dispatch, paced at ${PACED_RATE}/s (append -> arrival) | ${PACED_RATE} | ${paced.delayP50} | ${paced.delayP99} | ${paced.checks} | |`);
  console.log(
    `| bare POST loop (request latency) | ${bareResult.perSecond} | ${bareResult.latencyP50} | ${bareResult.latencyP99} | ${bareResult.posted} | 1 |`,
  );
  console.log(`written to ${writeResult('webhooks', report)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
