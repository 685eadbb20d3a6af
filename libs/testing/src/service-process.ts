import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
export const API_MAIN = path.join(ROOT, 'dist/apps/api/src/main.js');
export const PROJECTOR_MAIN = path.join(ROOT, 'dist/apps/projector/src/main.js');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export function tempDataDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `cds-${label}-`));
}

export interface RunningService {
  baseUrl: string;
  port: number;
  adminKey: string;
  dataDir: string;
  proc: ChildProcess;
  output: () => string;
  /** SIGTERM (graceful) or SIGKILL; resolves when the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface StartOptions {
  dataDir?: string;
  env?: Record<string, string>;
  adminKey?: string;
  port?: number;
}

/**
 * Start the built service as a real process on a real port (the e2e suites never
 * boot it in-process: what they test is what `npm start` runs). HTTP_ADAPTER follows
 * E2E_HTTP_ADAPTER so the same suites run on fastify and express.
 */
export async function startService(opts: StartOptions = {}): Promise<RunningService> {
  if (!fs.existsSync(API_MAIN)) throw new Error(`${API_MAIN} is missing: run npm run build first`);
  const dataDir = opts.dataDir ?? tempDataDir('e2e');
  const port = opts.port ?? (await freePort());
  const adminKey = opts.adminKey ?? 'test-admin-key-0123456789abcdef';
  let out = '';
  const proc = spawn(process.execPath, [API_MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_API_KEY: adminKey,
      HTTP_ADAPTER: process.env.E2E_HTTP_ADAPTER ?? 'fastify',
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`service exited with ${proc.exitCode} during start:\n${out}`);
    try {
      const r = await fetch(`${baseUrl}/health`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`service did not become healthy in 30 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    baseUrl,
    port,
    adminKey,
    dataDir,
    proc,
    output: () => out,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      await exited;
    },
  };
}

/** Run the projector's rebuild against a stopped service's data dir. */
export function runRebuild(dataDir: string, env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [PROJECTOR_MAIN, '--rebuild'], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
