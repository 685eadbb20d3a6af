import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { infraEnv, prefixOf } from './distributed-infra';
import { Topology } from './topology';
import { freePort } from './free-port';

const ROOT = path.resolve(__dirname, '../../..');
export const API_MAIN = path.join(ROOT, 'dist/apps/api/src/main.js');
export const PROJECTOR_MAIN = path.join(ROOT, 'dist/apps/projector/src/main.js');

export function tempDataDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `cds-${label}-`));
}

/** How the e2e suites run the service: `embedded` (default, one process on the file log
 * and SQLite) or `distributed` (E2E_MODE=distributed: projector, worker and two api
 * replicas on the real Kafka and Elasticsearch, behind a round-robin proxy). */
export function e2eMode(): 'embedded' | 'distributed' {
  const mode = process.env.E2E_MODE ?? 'embedded';
  if (mode !== 'embedded' && mode !== 'distributed') throw new Error(`E2E_MODE=${mode}: expected embedded or distributed`);
  return mode;
}

export interface RunningService {
  baseUrl: string;
  port: number;
  adminKey: string;
  dataDir: string;
  /** The service process (embedded), or the first api replica (distributed). */
  proc: ChildProcess;
  /** The distributed deployment, when E2E_MODE=distributed. */
  topology?: Topology;
  output: () => string;
  /** SIGTERM (graceful) or SIGKILL; resolves when the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface StartOptions {
  dataDir?: string;
  env?: Record<string, string>;
  adminKey?: string;
  port?: number;
  /** Distributed mode: what each api replica must answer before the start returns
   * (default `/ready`; `/health` for a deployment meant to be unready). Embedded mode
   * waits for `/health`. */
  startProbe?: '/health' | '/ready';
  /** Embedded mode: binaries the service must not find (`['tesseract', 'ffmpeg']`). It runs
   * in a private mount namespace (util-linux `unshare --mount`, root: CI runs as root) where
   * every file of those names on the PATH is covered by an empty, non-executable file: a
   * machine without them, as far as the service can tell. */
  hideBinaries?: string[];
}

/**
 * Start the built service as real processes on real ports (the e2e suites never
 * boot it in-process: what they test is what `npm start` runs). HTTP_ADAPTER follows
 * E2E_HTTP_ADAPTER so the same suites run on fastify and express; E2E_MODE picks the
 * embedded or the distributed deployment (see e2eMode). In distributed mode the data
 * dir names the deployment: starting again on the same data dir finds the same topics
 * and indices (a restart), a new one gets its own.
 */
export async function startService(opts: StartOptions = {}): Promise<RunningService> {
  if (!fs.existsSync(API_MAIN)) throw new Error(`${API_MAIN} is missing: run npm run build first`);
  const dataDir = opts.dataDir ?? tempDataDir('e2e');
  const adminKey = opts.adminKey ?? 'test-admin-key-0123456789abcdef';
  if (e2eMode() === 'distributed') {
    if (opts.hideBinaries?.length) throw new Error('hideBinaries works in embedded mode only');
    return startDistributed(dataDir, adminKey, opts);
  }
  const port = opts.port ?? (await freePort());
  let out = '';
  const [command, args] = opts.hideBinaries?.length ? withoutBinaries(opts.hideBinaries, [process.execPath, API_MAIN]) : [process.execPath, [API_MAIN]];
  const proc = spawn(command, args, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_API_KEY: adminKey,
      HTTP_ADAPTER: process.env.E2E_HTTP_ADAPTER ?? 'fastify',
      LOG_LEVEL: 'warn',
      // The image model loads (~7 s of a core per thread) only in the processes that score
      // an image, in one thread: most suites send none.
      IMAGE_MODEL_PRELOAD: 'false',
      IMAGE_WORKERS: '1',
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

/** The command that runs `argv` with `names` hidden (see StartOptions.hideBinaries); the
 * shell execs the service, so the child's pid is the service's. */
function withoutBinaries(names: string[], argv: string[]): [string, string[]] {
  const found = new Set<string>();
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d))) {
    for (const name of names) {
      const file = path.join(dir, name);
      if (fs.existsSync(file)) found.add(fs.realpathSync(file));
    }
  }
  const empty = path.join(tempDataDir('hidden-binary'), 'empty');
  fs.writeFileSync(empty, '', { mode: 0o644 });
  const script = 'set -e; cover=$1; shift; while [ "$1" != -- ]; do mount --bind "$cover" "$1"; shift; done; shift; exec "$@"';
  return ['unshare', ['--mount', '--propagation', 'private', '--', 'sh', '-c', script, 'sh', empty, ...found, '--', ...argv]];
}

async function startDistributed(dataDir: string, adminKey: string, opts: StartOptions): Promise<RunningService> {
  const topology = await Topology.start({ prefix: prefixOf(dataDir), dataDir, adminKey, env: opts.env, port: opts.port, startProbe: opts.startProbe });
  return {
    baseUrl: topology.baseUrl,
    port: topology.proxy.port,
    adminKey,
    dataDir,
    proc: topology.apis[0].proc,
    topology,
    output: () => topology.output(),
    stop: (signal: NodeJS.Signals = 'SIGTERM') => topology.stop(signal),
  };
}

/** The environment that points a process at the deployment of `dataDir`. */
export function deploymentEnv(dataDir: string): Record<string, string> {
  if (e2eMode() === 'embedded') return { DATA_DIR: dataDir };
  return { DATA_DIR: dataDir, ...infraEnv(), EVENT_LOG: 'kafka', READ_MODELS: 'elasticsearch', TOPIC_PREFIX: prefixOf(dataDir) };
}

/** Run the projector's rebuild against a stopped service's deployment. */
export function runRebuild(dataDir: string, env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [PROJECTOR_MAIN, '--rebuild'], {
    env: { ...process.env, ...deploymentEnv(dataDir), LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Delete the read models of a stopped deployment, leaving its log: the SQLite files
 * under DATA_DIR (embedded), or every Elasticsearch index of its prefix (distributed).
 */
export async function dropReadModels(dataDir: string): Promise<void> {
  if (e2eMode() === 'embedded') {
    fs.rmSync(path.join(dataDir, 'readmodels'), { recursive: true, force: true });
    return;
  }
  const { ELASTICSEARCH_URL } = infraEnv();
  const r = await fetch(`${ELASTICSEARCH_URL}/${prefixOf(dataDir)}*?expand_wildcards=all&allow_no_indices=true`, { method: 'DELETE' });
  if (!r.ok) throw new Error(`deleting the indices of ${prefixOf(dataDir)}: ${r.status} ${await r.text()}`);
}
