import * as fs from 'node:fs';
import * as path from 'node:path';
import { assertInfraReachable, infraEnv, recordDeployment } from './distributed-infra';
import { ManagedProcess } from './managed-process';
import { RoundRobinProxy } from './round-robin-proxy';
import { freePort } from './free-port';

const ROOT = path.resolve(__dirname, '../../..');
const MAIN = {
  api: path.join(ROOT, 'dist/apps/api/src/main.js'),
  projector: path.join(ROOT, 'dist/apps/projector/src/main.js'),
  worker: path.join(ROOT, 'dist/apps/worker/src/main.js'),
};

export interface TopologyOptions {
  /** TOPIC_PREFIX: topics and indices of this deployment. */
  prefix: string;
  dataDir: string;
  adminKey: string;
  /** Extra environment for every process (e.g. RATE_LIMIT_PER_MINUTE). */
  env?: Record<string, string>;
  apiReplicas?: number;
  /** Port of the round-robin proxy (default: a free one). */
  port?: number;
  /** Override KAFKA_BROKERS / ELASTICSEARCH_URL (e.g. a separate broker for fault tests). */
  kafkaBrokers?: string;
  elasticsearchUrl?: string;
  /** Start each process up to its liveness (`/health`) instead of its readiness, e.g.
   * with servers still away. Default `/ready`. */
  startProbe?: '/health' | '/ready';
}

/**
 * The distributed deployment on one machine, as docker-compose.yml draws it but as
 * plain processes: projector, worker and N api replicas (ROLE=api) on the real Kafka
 * and Elasticsearch, behind a round-robin proxy. Every process is started and awaited
 * on its own readiness probe, so a missing server fails the start with its logs.
 */
export class Topology {
  private constructor(
    readonly options: TopologyOptions,
    /** The environment every process of the deployment shares (before ROLE), e.g. to run
     * a one-off command such as a rebuild against it. */
    readonly env: Readonly<Record<string, string>>,
    readonly projector: ManagedProcess,
    readonly worker: ManagedProcess,
    readonly apis: ManagedProcess[],
    readonly proxy: RoundRobinProxy,
  ) {}

  get baseUrl(): string {
    return this.proxy.baseUrl;
  }

  static async start(options: TopologyOptions): Promise<Topology> {
    for (const f of Object.values(MAIN)) if (!fs.existsSync(f)) throw new Error(`${f} is missing: run npm run build first`);
    if (!options.kafkaBrokers && !options.elasticsearchUrl) {
      await assertInfraReachable();
      recordDeployment(options.prefix);
    }
    const env: Record<string, string> = {
      ...infraEnv(),
      ...(options.kafkaBrokers ? { KAFKA_BROKERS: options.kafkaBrokers } : {}),
      ...(options.elasticsearchUrl ? { ELASTICSEARCH_URL: options.elasticsearchUrl } : {}),
      EVENT_LOG: 'kafka',
      READ_MODELS: 'elasticsearch',
      TOPIC_PREFIX: options.prefix,
      DATA_DIR: options.dataDir,
      ADMIN_API_KEY: options.adminKey,
      HTTP_ADAPTER: process.env.E2E_HTTP_ADAPTER ?? 'fastify',
      LOG_LEVEL: 'warn',
      // The image model loads (~7 s of a core per thread) only in the processes that score
      // an image, in one thread: most suites send none.
      IMAGE_MODEL_PRELOAD: 'false',
      IMAGE_WORKERS: '1',
      // three scoring processes (two api replicas and the worker) share the two cores
      TEXT_WORKERS: '1',
      ...options.env,
    };
    const projector = new ManagedProcess('projector', MAIN.projector, await freePort(), { ...env, ROLE: 'projector' });
    const worker = new ManagedProcess('worker', MAIN.worker, await freePort(), { ...env, ROLE: 'worker' });
    const apis: ManagedProcess[] = [];
    for (let i = 0; i < (options.apiReplicas ?? 2); i++) apis.push(new ManagedProcess(`api-${i + 1}`, MAIN.api, await freePort(), { ...env, ROLE: 'api' }));
    const all = [projector, worker, ...apis];
    try {
      // The projector first: it creates the topics and the read-model indices.
      const probe = options.startProbe ?? '/ready';
      await projector.start(probe);
      await Promise.all([worker.start(probe), ...apis.map((a) => a.start(probe))]);
    } catch (e) {
      await Promise.all(all.map((p) => p.stop('SIGKILL')));
      throw e;
    }
    const proxy = await RoundRobinProxy.start(
      apis.map((a) => a.port),
      options.port,
    );
    const topology = new Topology(options, env, projector, worker, apis, proxy);
    if (!options.kafkaBrokers && !options.elasticsearchUrl) recordDeployment(options.prefix, () => topology.stop());
    return topology;
  }

  output(): string {
    return [this.projector, this.worker, ...this.apis].map((p) => `===== ${p.name} =====\n${p.output()}`).join('\n');
  }

  /** SIGTERM: apis first (no new writes), then the worker, then the projector: a worker
   * stopping while it delivers webhooks reads the read models, and with the projector gone
   * each read waits PROJECTION_WAIT_MS for it (a worker took 15 s to stop). SIGKILL: all at
   * once.
   * Stopping again waits for the first stop (the file's cleanup may have stopped it), unless
   * it is a SIGKILL, which kills what is still running. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.stopping && signal !== 'SIGKILL') return this.stopping;
    this.stopping = this.stopAll(signal);
    return this.stopping;
  }

  private stopping?: Promise<void>;
  private proxyClosed?: Promise<void>;

  private async stopAll(signal: NodeJS.Signals): Promise<void> {
    if (signal === 'SIGKILL') {
      await Promise.all([this.projector, this.worker, ...this.apis].map((p) => p.stop('SIGKILL')));
    } else {
      await Promise.all(this.apis.map((p) => p.stop(signal)));
      await this.worker.stop(signal);
      await this.projector.stop(signal);
    }
    this.proxyClosed ??= this.proxy.close();
    await this.proxyClosed;
  }
}
