import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';

const ROOT = path.resolve(__dirname, '../../..');
const INFRA = path.join(ROOT, 'scripts/infra/infra.sh');
const run = promisify(execFile);

/**
 * A Kafka broker of its own (own ports, own data dir under the temporary directory), started with
 * scripts/infra/infra.sh, for fault tests that restart or kill the broker: the shared
 * broker of the other suites (and of anyone else on the machine) is left alone.
 */
export class PrivateBroker {
  private constructor(
    private readonly env: NodeJS.ProcessEnv,
    readonly port: number,
    readonly stateDir: string,
  ) {}

  get brokers(): string {
    return `127.0.0.1:${this.port}`;
  }

  static async start(label: string): Promise<PrivateBroker> {
    const port = await freePort();
    let controller = await freePort();
    while (controller === port) controller = await freePort();
    // under the temporary directory: in memory when scripts/test.sh put TMPDIR there
    const stateDir = path.join(os.tmpdir(), `cds-private-${label}-${process.pid}-${port}`);
    const env = { ...process.env, INFRA_STATE: stateDir, KAFKA_PORT: String(port), KAFKA_CONTROLLER_PORT: String(controller), KAFKA_HEAP: '384m' };
    const broker = new PrivateBroker(env, port, stateDir);
    await broker.infra('start', 'kafka');
    return broker;
  }

  private async infra(...args: string[]): Promise<string> {
    try {
      const { stderr } = await run(INFRA, args, { env: this.env, timeout: 180_000 });
      return stderr;
    } catch (e: any) {
      throw new Error(`infra.sh ${args.join(' ')} failed: ${e.stderr ?? e.message}`);
    }
  }

  /** Stop (SIGTERM, or SIGKILL: a crash) and start it again on the same data. */
  async restart(mode: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    await this.infra('restart-kafka', ...(mode === 'SIGKILL' ? ['--kill'] : []));
  }

  /** SIGKILL only (a crash); `start()` brings it back on the same data. */
  async kill(): Promise<void> {
    await this.infra('kill', 'kafka');
  }

  async start(): Promise<void> {
    await this.infra('start', 'kafka');
  }

  /** Stop it and delete its data. */
  async destroy(): Promise<void> {
    await this.infra('stop', 'kafka').catch(() => undefined);
    fs.rmSync(this.stateDir, { recursive: true, force: true });
  }
}
