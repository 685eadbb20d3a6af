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

export function startNode(script: string, env: Record<string, string>): ChildProcess {
  const p = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return p;
}

export async function stopProcess(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null) return;
  const done = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  await done;
}

/** autocannon against one POST endpoint; every request carries a distinct body. */
export async function load(label: string, url: string, headers: Record<string, string>, body: (i: number) => string, seconds: number, connections: number): Promise<LoadResult> {
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
