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
export function startNode(script: string, env: Record<string, string>): ChildProcess {
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const p = spawn(process.execPath, [...prof, script], {
    env: { ...process.env, LOCAL_TEXT_MODEL: BENCH_TEXT_MODEL, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return p;
}

export async function stopProcess(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null) return;
  const done = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  await done;
}

/** autocannon against one POST endpoint; every request carries a distinct body. */
export async function load(
  label: string,
  url: string,
  headers: Record<string, string>,
  body: (i: number) => string,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  let i = 0;
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...headers },
    requests: [{ setupRequest: (req: any) => ({ ...req, body: body(i++) }) }],
  });
  return {
    label,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

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
}

export const BENCH_ADMIN_KEY = 'bench-admin-key-0123456789abcdef';

/**
 * One endpoint of the service in embedded mode (every write durably logged before the
 * answer, and projected behind it) against a bare NestJS endpoint on the same adapter that answers a
 * response of the same size: what the service's own work costs over the framework.
 */
export async function measureEmbeddedAgainstBare(run: EmbeddedRun): Promise<{ service: LoadResult; bare: LoadResult; responseBytes: number; ratio: number }> {
  const { adapter, port, body, seconds, connections } = run;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-bench-'));
  const base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${BENCH_ADMIN_KEY}` };
  const svc = startNode(path.join(ROOT, 'dist/apps/api/src/main.js'), {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_API_KEY: BENCH_ADMIN_KEY,
    HTTP_ADAPTER: adapter,
    RATE_LIMIT_PER_MINUTE: '10000000',
    LOG_LEVEL: 'warn',
    ...(run.textModel ? { LOCAL_TEXT_MODEL: run.textModel } : {}),
  });
  let service: LoadResult;
  let sample: string;
  try {
    await waitHealthy(`${base}/health`);
    await run.setup?.(base, auth);
    const warm = await fetch(base + run.path, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: body(0) });
    sample = await warm.text();
    if (!warm.ok) throw new Error(`${run.path} answered ${warm.status}: ${sample}`);
    await load('warmup', base + run.path, auth, body, 2, connections);
    service = await load(`${run.path} (${adapter})`, base + run.path, auth, body, seconds, connections);
  } finally {
    await stopProcess(svc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const bare = startNode(path.join(ROOT, 'dist/bench/bare-app.js'), {
    PORT: String(port + 1),
    HTTP_ADAPTER: adapter,
    BARE_RESPONSE: sample,
    BARE_SCORER: run.textModel === 'embedding' ? 'embedding' : 'none',
  });
  let bareResult: LoadResult;
  try {
    await waitHealthy(`http://127.0.0.1:${port + 1}/bare`);
    await load('warmup', `http://127.0.0.1:${port + 1}/bare`, {}, body, 2, connections);
    bareResult = await load(`bare (${adapter})`, `http://127.0.0.1:${port + 1}/bare`, {}, body, seconds, connections);
  } finally {
    await stopProcess(bare);
  }
  return { service, bare: bareResult, responseBytes: Buffer.byteLength(sample), ratio: +(service.rps / bareResult.rps).toFixed(2) };
}
