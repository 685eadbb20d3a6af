import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import autocannon from 'autocannon';

export const ROOT = path.resolve(__dirname, '../..');

export interface LoadResult {
  label: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** The server process's CPU time (user + system, every thread) over the requests
   * answered, when `load` was given its pid: steadier than req/s on a shared machine. */
  cpuUsPerRequest?: number;
}

export async function waitHealthy(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} not healthy`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The text model the benchmarked services run: the n-gram model unless LOCAL_TEXT_MODEL
 * says otherwise, so the figures measure the service around the scorer (the embedding
 * model's own cost has bench:text, and bench:check's embedding row). */
export const BENCH_TEXT_MODEL = process.env.LOCAL_TEXT_MODEL ?? 'ngram';

/** BENCH_CPU_PROF=<dir>: every process a benchmark starts writes a V8 CPU profile there
 * when it exits (node --cpu-prof; NODE_OPTIONS may not carry that flag). */
export function startNode(script: string, env: Record<string, string>, o: { drainStdout?: boolean } = {}): ChildProcess {
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const p = spawn(process.execPath, [...prof, script], {
    env: { ...process.env, LOCAL_TEXT_MODEL: BENCH_TEXT_MODEL, ...env },
    // drainStdout: stdout is a pipe read (and dropped) here, as a log collector reads it
    stdio: ['ignore', o.drainStdout ? 'pipe' : 'ignore', 'inherit'],
  });
  p.stdout?.resume();
  return p;
}

export async function stopProcess(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null) return;
  const done = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  await done;
}

/** autocannon against one POST endpoint; every request carries a distinct body. With the
 * server's `pid`, also its CPU time a request. */
export async function load(
  label: string,
  url: string,
  headers: Record<string, string>,
  body: (i: number) => string,
  seconds: number,
  connections: number,
  pid?: number,
): Promise<LoadResult> {
  let i = 0;
  const cpuBefore = pid === undefined ? null : processCpuMs(pid);
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...headers },
    requests: [{ setupRequest: (req: any) => ({ ...req, body: body(i++) }) }],
  });
  const cpuAfter = pid === undefined ? null : processCpuMs(pid);
  return {
    label,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    // none when the process could not be read before and after (gone, or not Linux)
    ...(cpuBefore !== null && cpuAfter !== null && result.requests.total > 0
      ? { cpuUsPerRequest: Math.round(((cpuAfter - cpuBefore) * 1000) / result.requests.total) }
      : {}),
  };
}

/** A process's user + system CPU time in ms (Linux /proc; null elsewhere); with
 * `children`, also that of its children it has waited for (ffmpeg, tesseract runs). */
export function processCpuMs(pid: number | 'self', children = false): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return ((own + (children ? Number(fields[13]) + Number(fields[14]) : 0)) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** USER_HZ of /proc's times: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

export function machine(): string {
  return `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

export function writeResult(name: string, data: unknown): string {
  const dir = path.join(ROOT, 'bench/results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
  return file;
}

export interface EmbeddedRun {
  adapter: 'fastify' | 'express';
  port: number;
  /** The endpoint under load, e.g. /v1/check. */
  path: string;
  body: (i: number) => string;
  seconds: number;
  connections: number;
  /** LOCAL_TEXT_MODEL of the service; the bare endpoint then scores each body's `content`
   * with the same model before answering (`embedding`), or scores nothing (default). */
  textModel?: 'embedding' | 'ngram';
  /** Requests made once before the warm-up (a policy to store, …). */
  setup?: (baseUrl: string, auth: Record<string, string>) => Promise<void>;
  /** More environment for the service (LOG_LEVEL, ACCESS_LOG, OTEL_*…). */
  env?: Record<string, string>;
  /** Read the service's stdout through a pipe (its log lines cost what they cost there). */
  drainStdout?: boolean;
  /** Read once the load is over, before the service stops (its /metrics, …). */
  inspect?: (baseUrl: string) => Promise<unknown>;
  /** The service's main script (default this tree's build): bench:ab runs another build. */
  main?: string;
}

export const BENCH_ADMIN_KEY = 'bench-admin-key-0123456789abcdef';

/** The texts the check benchmarks send, in turn. */
const CHECK_TEXTS = [
  'Have a great day, see you at the meeting tomorrow!',
  'This product is terrible and the support team never answers.',
  'I will find you and hurt you',
  'Buy cheap watches now at our store',
];

/** The body of the i-th POST /v1/check of a benchmark: every one distinct. */
export const checkBody = (i: number) =>
  JSON.stringify({ content: `${CHECK_TEXTS[i % CHECK_TEXTS.length]} #${i}`, policyId: 'default', metadata: { userId: `u${i % 100}` } });

/**
 * One endpoint of the service in embedded mode (every write durably logged before the
 * answer, and projected behind it) against a bare NestJS endpoint on the same adapter that answers a
 * response of the same size: what the service's own work costs over the framework.
 */
export async function measureEmbeddedAgainstBare(run: EmbeddedRun): Promise<{ service: LoadResult; bare: LoadResult; responseBytes: number; ratio: number }> {
  const { service, sample } = await measureEmbedded(run);
  const bare = await measureBare({
    ...run,
    port: run.port + 1,
    label: `bare (${run.adapter})`,
    env: { BARE_RESPONSE: sample, BARE_SCORER: run.textModel === 'embedding' ? 'embedding' : 'none' },
  });
  return { service, bare, responseBytes: Buffer.byteLength(sample), ratio: +(service.rps / bare.rps).toFixed(2) };
}

/** The service's endpoint under load, in embedded mode on a fresh data directory; `sample`
 * is its answer to the first body (what the bare endpoint answers). */
export async function measureEmbedded(run: EmbeddedRun): Promise<{ service: LoadResult; sample: string; inspected?: unknown }> {
  const { adapter, port, body, seconds, connections } = run;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-bench-'));
  const base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${BENCH_ADMIN_KEY}` };
  const svc = startNode(
    run.main ?? path.join(ROOT, 'dist/apps/api/src/main.js'),
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_API_KEY: BENCH_ADMIN_KEY,
      HTTP_ADAPTER: adapter,
      RATE_LIMIT_PER_MINUTE: '10000000',
      LOG_LEVEL: 'warn',
      ...(run.textModel ? { LOCAL_TEXT_MODEL: run.textModel } : {}),
      ...run.env,
    },
    { drainStdout: run.drainStdout },
  );
  try {
    await waitHealthy(`${base}/health`);
    await run.setup?.(base, auth);
    const warm = await fetch(base + run.path, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: body(0) });
    const sample = await warm.text();
    if (!warm.ok) throw new Error(`${run.path} answered ${warm.status}: ${sample}`);
    await load('warmup', base + run.path, auth, body, 2, connections);
    const service = await load(`${run.path} (${adapter})`, base + run.path, auth, body, seconds, connections, svc.pid);
    return { service, sample, ...(run.inspect ? { inspected: await run.inspect(base) } : {}) };
  } finally {
    await stopProcess(svc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The bare endpoint (bare-app.ts) under the same load, configured by `env` (BARE_*). */
export async function measureBare(run: {
  adapter: 'fastify' | 'express';
  port: number;
  label: string;
  env: Record<string, string>;
  body: (i: number) => string;
  seconds: number;
  connections: number;
}): Promise<LoadResult> {
  const url = `http://127.0.0.1:${run.port}/bare`;
  const bare = startNode(path.join(ROOT, 'dist/bench/bare-app.js'), { PORT: String(run.port), HTTP_ADAPTER: run.adapter, ...run.env });
  try {
    await waitHealthy(url);
    await load('warmup', url, {}, run.body, 2, run.connections);
    return await load(run.label, url, {}, run.body, run.seconds, run.connections, bare.pid);
  } finally {
    await stopProcess(bare);
  }
}
