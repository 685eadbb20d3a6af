import { ChildProcess, execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BENCH_ADMIN_KEY, checkBody, load, LoadResult, machine, ROOT, startNode, stopProcess, waitHealthy, writeResult } from './bench-support';

/**
 * npm run bench:distributed — POST /v1/check in distributed mode (two api replicas,
 * projector and worker on a real Kafka broker and Elasticsearch node, every answer
 * after the broker's acknowledgement; reads wait for the projection) against
 * embedded mode (one process, file log + SQLite), in the same run; then the rebuild
 * rate of each mode (events/s replayed into a fresh generation) against the rate the
 * live checks produced those events.
 * Starts the servers with scripts/infra/infra.sh when they are not running (and stops
 * what it started). Env: BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (40, each mode: Kafka's and
 * Elasticsearch's JIT compilers take some 30 s of this load to settle, and a 2 s warm-up
 * measured their compiling; see BENCHMARKS.md), BENCH_CONNECTIONS (50, split over the
 * replicas).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 40);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const INFRA = path.join(ROOT, 'scripts/infra/infra.sh');
const MAIN = {
  api: path.join(ROOT, 'dist/apps/api/src/main.js'),
  projector: path.join(ROOT, 'dist/apps/projector/src/main.js'),
  worker: path.join(ROOT, 'dist/apps/worker/src/main.js'),
};
const body = checkBody;
const AUTH = { authorization: `Bearer ${BENCH_ADMIN_KEY}` };
const COMMON = { ADMIN_API_KEY: BENCH_ADMIN_KEY, HOST: '127.0.0.1', HTTP_ADAPTER: 'fastify', RATE_LIMIT_PER_MINUTE: '10000000', LOG_LEVEL: 'warn' };

interface Rebuild {
  events: number;
  /** The replay, without creating the generation. */
  ms: number;
  setupMs: number;
  eventsPerSecond: number;
  withSetupEventsPerSecond: number;
}

function rebuild(env: Record<string, string>): Rebuild {
  const r = spawnSync(process.execPath, [MAIN.projector, '--rebuild'], { env: { ...process.env, ...COMMON, ...env }, encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0) throw new Error(`rebuild failed (${r.status}):\n${r.stderr}\n${r.stdout}`);
  // The replay alone: a distributed rebuild also waits for a live projector to take
  // the promotion (none runs here, so it waits its 5 s before swapping itself).
  // The rate is the replay's, without creating the generation (a fixed cost: ten indices
  // on Elasticsearch); `withSetupEventsPerSecond` counts it, as figures before 2026-11-27 did.
  const { events, replayMs, setupMs } = JSON.parse(r.stdout.trim().split('\n').pop()!);
  const ms = replayMs - setupMs;
  return { events, ms, setupMs, eventsPerSecond: Math.round((events / ms) * 1000), withSetupEventsPerSecond: Math.round((events / replayMs) * 1000) };
}

/** Two autocannon runs at once, one per replica (what a load balancer would spread). */
async function loadReplicas(label: string, urls: string[], seconds: number): Promise<LoadResult & { perReplica: LoadResult[] }> {
  const per = await Promise.all(urls.map((u, i) => load(`${label} #${i + 1}`, `${u}/v1/check`, AUTH, body, seconds, Math.ceil(CONNECTIONS / urls.length))));
  return {
    label,
    requests: per.reduce((n, r) => n + r.requests, 0),
    rps: per.reduce((n, r) => n + r.rps, 0),
    // the slower replica's percentiles: an upper bound of the combined ones
    p50: Math.max(...per.map((r) => r.p50)),
    p99: Math.max(...per.map((r) => r.p99)),
    non2xx: per.reduce((n, r) => n + r.non2xx, 0),
    errors: per.reduce((n, r) => n + r.errors, 0),
    perReplica: per,
  };
}

async function embedded(): Promise<{ load: LoadResult; rebuild: Rebuild; events: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-bench-embedded-'));
  const port = 4300;
  const api = startNode(MAIN.api, { ...COMMON, PORT: String(port), DATA_DIR: dataDir });
  let result: LoadResult;
  try {
    await waitHealthy(`http://127.0.0.1:${port}/ready`);
    await load('warmup', `http://127.0.0.1:${port}/v1/check`, AUTH, body, WARMUP_SECONDS, CONNECTIONS);
    result = await load('embedded', `http://127.0.0.1:${port}/v1/check`, AUTH, body, SECONDS, CONNECTIONS);
  } finally {
    await stopProcess(api);
  }
  const rebuilt = rebuild({ DATA_DIR: dataDir });
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { load: result, rebuild: rebuilt, events: rebuilt.events };
}

async function distributed(infra: Record<string, string>): Promise<{ load: LoadResult & { perReplica: LoadResult[] }; rebuild: Rebuild; prefix: string }> {
  const prefix = `bench-${Date.now().toString(36)}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-bench-distributed-'));
  const env = { ...COMMON, ...infra, EVENT_LOG: 'kafka', READ_MODELS: 'elasticsearch', TOPIC_PREFIX: prefix, DATA_DIR: dataDir };
  const procs: ChildProcess[] = [];
  let result: LoadResult & { perReplica: LoadResult[] };
  try {
    procs.push(startNode(MAIN.projector, { ...env, ROLE: 'projector', PORT: '4310' }));
    await waitHealthy('http://127.0.0.1:4310/ready', 120_000);
    procs.push(startNode(MAIN.worker, { ...env, ROLE: 'worker', PORT: '4311' }));
    const urls = ['http://127.0.0.1:4312', 'http://127.0.0.1:4313'];
    urls.forEach((u, i) => procs.push(startNode(MAIN.api, { ...env, ROLE: 'api', PORT: String(4312 + i) })));
    for (const u of [...urls, 'http://127.0.0.1:4311']) await waitUntilReady(`${u}/ready`);
    await loadReplicas('warmup', urls, WARMUP_SECONDS);
    result = await loadReplicas('distributed', urls, SECONDS);
  } finally {
    for (const p of procs.reverse()) await stopProcess(p);
  }
  const rebuilt = rebuild(env);
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { load: result, rebuild: rebuilt, prefix };
}

async function waitUntilReady(url: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ok = await fetch(url).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} not ready`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function infraEnv(): Record<string, string> {
  return Object.fromEntries(
    execFileSync(INFRA, ['env'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

async function main() {
  const status = spawnSync(INFRA, ['status'], { encoding: 'utf8' }).stdout;
  const started = [/^kafka: running/m.test(status) ? null : 'kafka', /^elasticsearch: running/m.test(status) ? null : 'es'].filter(Boolean) as string[];
  execFileSync(INFRA, ['start'], { stdio: 'inherit' });
  try {
    const emb = await embedded();
    const dist = await distributed(infraEnv());
    const live = (r: LoadResult) => Math.round(r.requests / SECONDS); // one decision event per check
    const report = {
      date: new Date().toISOString(),
      machine: machine(),
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      connections: CONNECTIONS,
      embedded: { ...emb.load, rebuild: emb.rebuild, liveEventsPerSecond: live(emb.load) },
      distributed: { ...dist.load, rebuild: dist.rebuild, liveEventsPerSecond: live(dist.load) },
      ratio: +(dist.load.rps / emb.load.rps).toFixed(2),
    };
    console.log(`machine: ${report.machine}; autocannon -c ${CONNECTIONS} for ${SECONDS} s per run, after ${WARMUP_SECONDS} s of the same load`);
    console.log('| mode | req/s | p50 ms | p99 ms | non-2xx | errors | vs embedded |');
    console.log('|---|---|---|---|---|---|---|');
    console.log(
      `| embedded (file log + SQLite, 1 process) | ${emb.load.rps} | ${emb.load.p50} | ${emb.load.p99} | ${emb.load.non2xx} | ${emb.load.errors} | 1 |`,
    );
    console.log(
      `| distributed (Kafka + Elasticsearch, 2 api replicas) | ${dist.load.rps} | ${dist.load.p50} | ${dist.load.p99} | ${dist.load.non2xx} | ${dist.load.errors} | ${report.ratio} |`,
    );
    for (const r of dist.load.perReplica) console.log(`|   ${r.label} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} | |`);
    console.log('');
    console.log('| mode | events in log | setup ms | replay ms | replay events/s | live events/s | rebuild / live | with setup |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const [mode, m] of [
      ['embedded', report.embedded],
      ['distributed', report.distributed],
    ] as const) {
      console.log(
        `| ${mode} | ${m.rebuild.events} | ${m.rebuild.setupMs} | ${m.rebuild.ms} | ${m.rebuild.eventsPerSecond} | ${m.liveEventsPerSecond} | ${(m.rebuild.eventsPerSecond / m.liveEventsPerSecond).toFixed(1)} | ${(m.rebuild.withSetupEventsPerSecond / m.liveEventsPerSecond).toFixed(1)} |`,
      );
    }
    console.log(`written to ${writeResult('distributed', report)}`);
    // the bench's topics, groups and indices
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/infra/delete-test-data.js'), dist.prefix], {
      stdio: 'inherit',
      env: { ...process.env, ...infraEnv() },
    });
  } finally {
    for (const s of started) execFileSync(INFRA, ['stop', s], { stdio: 'inherit' });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
