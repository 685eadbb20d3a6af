import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EncodedEvent } from '@cds/event-log';
import type { RowsAt } from './sqlite-rows';

export interface DecoderJob {
  id: number;
  events: EncodedEvent[];
}

export type DecoderReply = { id: number; rows: RowsAt[]; parked: string[] } | { id: number; error: string };

export interface DecodedRows {
  rows: RowsAt[];
  /** One message per event that could not be read (skipped), for the caller's log. */
  parked: string[];
}

interface Pending {
  resolve: (d: DecodedRows) => void;
  reject: (err: Error) => void;
}

interface Decoder {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Why this thread can take no more jobs (it failed or exited). */
  gone: Error | null;
}

const WORKER_FILE = 'sqlite-row-decoder.worker';

/**
 * Threads that turn encoded events into SQLite rows (parse, upcast, serialise the
 * documents): two thirds of a rebuild's work, done beside the thread that writes them.
 * Jobs go round the threads in turn; each resolves with its events' rows in order.
 */
export class SqliteRowDecoders {
  private readonly decoders: Decoder[];
  private nextJob = 0;
  private closed = false;

  constructor(threads: number) {
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`SqliteRowDecoders: threads must be a positive integer (got ${threads})`);
    this.decoders = Array.from({ length: threads }, () => this.spawn());
  }

  get threads(): number {
    return this.decoders.length;
  }

  decode(events: EncodedEvent[]): Promise<DecodedRows> {
    if (this.closed) return Promise.reject(new Error('SqliteRowDecoders: closed'));
    const id = this.nextJob++;
    const decoder = this.decoders[id % this.decoders.length];
    if (decoder.gone) return Promise.reject(decoder.gone);
    return new Promise<DecodedRows>((resolve, reject) => {
      decoder.pending.set(id, { resolve, reject });
      decoder.worker.postMessage({ id, events } satisfies DecoderJob);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.decoders.map((d) => d.worker.terminate()));
  }

  private spawn(): Decoder {
    const decoder: Decoder = { worker: startWorker(), pending: new Map(), gone: null };
    const failAll = (err: Error) => {
      decoder.gone ??= err;
      for (const p of decoder.pending.values()) p.reject(err);
      decoder.pending.clear();
    };
    decoder.worker.on('message', (reply: DecoderReply) => {
      const p = decoder.pending.get(reply.id);
      if (!p) return;
      decoder.pending.delete(reply.id);
      if ('error' in reply) p.reject(new Error(`row decoder: ${reply.error}`));
      else p.resolve({ rows: reply.rows, parked: reply.parked });
    });
    decoder.worker.on('error', (err) => failAll(new Error(`row decoder thread failed: ${err.message}`)));
    decoder.worker.on('exit', (code) => failAll(new Error(`row decoder thread exited (code ${code})`)));
    return decoder;
  }
}

/** The compiled worker beside this file; under the test runner, which runs the TypeScript
 * sources, the same file compiled on load by the scripts' TypeScript hook. */
function startWorker(): Worker {
  const compiled = path.join(__dirname, `${WORKER_FILE}.js`);
  if (fs.existsSync(compiled)) return new Worker(compiled);
  const source = path.join(__dirname, `${WORKER_FILE}.ts`);
  const register = path.resolve(__dirname, '../../../../scripts/train-text/register.js');
  return new Worker(`require(${JSON.stringify(register)}); require(${JSON.stringify(source)});`, { eval: true });
}
