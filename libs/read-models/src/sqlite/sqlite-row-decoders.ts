import type { EncodedEvent } from '@cds/event-log';
import type { DecodedRows } from './decode-rows';
import { ThreadJobs } from './sqlite-thread';

export type { DecodedRows } from './decode-rows';

/**
 * Threads that turn encoded events into SQLite rows (parse, upcast, serialise the
 * documents): two thirds of a rebuild's work, done beside the thread that writes them.
 * Jobs go round the threads in turn; each resolves with its events' rows in order.
 */
export class SqliteRowDecoders {
  private readonly decoders: ThreadJobs<EncodedEvent[], DecodedRows>[];
  private nextJob = 0;
  private closed = false;

  constructor(threads: number) {
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`SqliteRowDecoders: threads must be a positive integer (got ${threads})`);
    this.decoders = Array.from({ length: threads }, () => new ThreadJobs<EncodedEvent[], DecodedRows>('row decoder', 'sqlite-row-decoder.worker'));
  }

  get threads(): number {
    return this.decoders.length;
  }

  decode(events: EncodedEvent[]): Promise<DecodedRows> {
    if (this.closed) return Promise.reject(new Error('SqliteRowDecoders: closed'));
    return this.decoders[this.nextJob++ % this.decoders.length].run(events);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.decoders.map((d) => d.worker.terminate()));
  }
}
