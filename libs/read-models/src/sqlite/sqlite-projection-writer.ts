import type { EncodedEvent } from '@cds/event-log';
import type { AppliedRows } from './sqlite-read-models.adapter';
import { ThreadJobs } from './sqlite-thread';

/** What the writer thread did with a batch. */
export interface AppliedBatch extends AppliedRows {
  /** One message per event that could not be read (skipped), for the caller's log. */
  parked: string[];
}

/** What the writer thread opens: generation `gen` of the read models in `dir`. */
export interface WriterTarget {
  dir: string;
  gen: string;
}

/** A job of the writer thread: events to apply, or the end (close its connection). */
export type WriterJob = { apply: EncodedEvent[] } | { close: true };

/**
 * The live projection's writer thread: applies encoded events to one SQLite generation
 * through its own connection (parse, lift, rows, one transaction per batch), so that
 * work leaves the thread that answers requests. Batches apply in the order sent.
 */
export class SqliteProjectionWriter {
  private readonly thread: ThreadJobs<WriterJob, AppliedBatch | null>;
  private closing: Promise<void> | null = null;

  constructor(dir: string, gen: string) {
    this.thread = new ThreadJobs('projection writer', 'sqlite-projection-writer.worker', { dir, gen } satisfies WriterTarget);
  }

  async apply(events: EncodedEvent[]): Promise<AppliedBatch> {
    if (this.closing) throw new Error('projection writer: closed');
    return (await this.thread.run({ apply: events }))!;
  }

  /** Lets the batch in progress commit, closes the thread's connection, ends the thread. */
  close(): Promise<void> {
    this.closing ??= this.thread
      .run({ close: true })
      .catch(() => undefined) // a thread already gone has nothing to close
      .then(() => this.thread.worker.terminate())
      .then(() => undefined);
    return this.closing;
  }
}
