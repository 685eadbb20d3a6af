import * as path from 'node:path';
import { parentPort, Worker } from 'node:worker_threads';
import { startWorkerFile } from '@cds/threads';

interface JobMessage<J> {
  id: number;
  job: J;
}

type ReplyMessage<R> = { id: number; result: R } | { id: number; error: string };

interface Pending<R> {
  resolve: (result: R) => void;
  reject: (err: Error) => void;
}

/**
 * One worker thread of this directory (`<file>.worker`), sent jobs and answering each
 * with its result (`answerJobs` on the thread's side). A thread that fails or exits
 * rejects its pending jobs and every later one.
 */
export class ThreadJobs<J, R> {
  readonly worker: Worker;
  private readonly pending = new Map<number, Pending<R>>();
  private nextId = 0;
  /** Why this thread can take no more jobs (it failed or exited). */
  private gone: Error | null = null;

  constructor(
    /** Names the thread in errors, e.g. "row decoder". */
    private readonly name: string,
    file: string,
    workerData?: unknown,
  ) {
    this.worker = startWorkerFile(path.join(__dirname, file), { workerData });
    this.worker.on('message', (reply: ReplyMessage<R>) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if ('error' in reply) p.reject(new Error(`${this.name}: ${reply.error}`));
      else p.resolve(reply.result);
    });
    this.worker.on('error', (err) => this.failAll(new Error(`${this.name} thread failed: ${err.message}`)));
    this.worker.on('exit', (code) => this.failAll(new Error(`${this.name} thread exited (code ${code})`)));
  }

  run(job: J): Promise<R> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, job } satisfies JobMessage<J>);
    });
  }

  private failAll(err: Error): void {
    this.gone ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

/** The thread's side of ThreadJobs: answers each job with `handle`'s result, or its
 * error. Jobs are handled in the order they come. */
export function answerJobs<J, R>(handle: (job: J) => R | Promise<R>): void {
  parentPort!.on('message', (message: JobMessage<J>) => {
    const reply = (r: ReplyMessage<R>) => parentPort!.postMessage(r);
    new Promise<R>((resolve) => resolve(handle(message.job))).then(
      (result) => reply({ id: message.id, result }),
      (err: unknown) => reply({ id: message.id, error: (err as Error)?.stack ?? String(err) }),
    );
  });
}
