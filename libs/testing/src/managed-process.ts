import { ChildProcess, spawn } from 'node:child_process';
import * as net from 'node:net';

/**
 * One built app run as a real child process (api replica, projector or worker), with
 * its output kept for failure messages. It can be stopped (SIGTERM), crashed (SIGKILL)
 * and started again with the same script, port and environment.
 */
export class ManagedProcess {
  proc!: ChildProcess;
  private out = '';
  private exited!: Promise<void>;

  constructor(
    readonly name: string,
    readonly script: string,
    readonly port: number,
    readonly env: Record<string, string>,
  ) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return !!this.proc && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  output(): string {
    return this.out;
  }

  /** Spawn, then wait until `probe` answers 200 (the app's own readiness). */
  async start(probe: '/health' | '/ready', timeoutMs = 60_000): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    // Something else answering on the port would pass for this process's probe.
    if (await this.portAnswers()) throw new Error(`${this.name}: port ${this.port} is already taken by another process`);
    this.out += `\n----- ${this.name} started ${new Date().toISOString()} -----\n`;
    const proc = spawn(process.execPath, [this.script], {
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.proc = proc;
    // A test run that dies (timeout, Ctrl-C) must not leave the deployment running.
    const reap = () => proc.kill('SIGKILL');
    process.once('exit', reap);
    proc.once('exit', () => process.removeListener('exit', reap));
    proc.stdout!.on('data', (d) => (this.out += d));
    proc.stderr!.on('data', (d) => (this.out += d));
    this.exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    await this.waitFor(probe, timeoutMs);
  }

  private portAnswers(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = net.connect(this.port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
  }

  /** Until GET `probe` answers 200; fails with the process's output. */
  async waitFor(probe: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer';
    for (;;) {
      if (!this.running) throw new Error(`${this.name} exited (${this.proc.exitCode ?? this.proc.signalCode}) while starting:\n${this.out}`);
      try {
        const r = await fetch(this.baseUrl + probe);
        last = `${r.status} ${await r.text()}`;
        if (r.status === 200) return;
      } catch (e) {
        last = (e as Error).message;
      }
      if (Date.now() > deadline) {
        this.proc.kill('SIGKILL');
        throw new Error(`${this.name}: ${probe} not 200 within ${timeoutMs} ms (last: ${last}):\n${this.out}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** SIGTERM (graceful) or SIGKILL; resolves when the process has exited. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.proc) return;
    if (this.running) this.proc.kill(signal);
    await this.exited;
  }
}
