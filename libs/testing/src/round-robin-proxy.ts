import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';

/**
 * A tiny HTTP load balancer for the distributed e2e topology: request n goes to
 * upstream n mod N, so consecutive requests of a client alternate between api
 * replicas. The Host header passes through unchanged (the service builds absolute
 * URLs from it). When an upstream cannot be reached or drops the request, the client's
 * connection is dropped too: the client sees a network error, never an answer made up
 * by the proxy. It runs as its own process, so a test that blocks its own event loop
 * (execFileSync of a curl command) still gets through.
 */
export class RoundRobinProxy {
  private constructor(
    private readonly proc: ChildProcess,
    readonly port: number,
  ) {}

  static async start(upstreams: number[], port = 0): Promise<RoundRobinProxy> {
    const proc = spawn(process.execPath, [path.join(__dirname, 'round-robin-proxy-server.js'), String(port), ...upstreams.map(String)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const reap = () => proc.kill('SIGKILL');
    process.once('exit', reap);
    proc.once('exit', () => process.removeListener('exit', reap));
    const listening = await new Promise<number>((resolve, reject) => {
      let out = '';
      proc.stdout!.on('data', (d) => {
        out += d;
        const line = out.split('\n')[0];
        if (out.includes('\n')) resolve(JSON.parse(line).port);
      });
      proc.once('exit', (code) => reject(new Error(`proxy exited (${code}) before listening`)));
    });
    return new RoundRobinProxy(proc, listening);
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise((r) => this.proc.once('exit', r));
    this.proc.kill('SIGTERM');
    await exited;
  }
}
