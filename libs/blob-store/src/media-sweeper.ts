import { BlobStore, retentionCutoff } from './blob-store.port';

export interface SweepLogger {
  log(message: string): void;
  error(message: string): void;
}

/** One retention policy over a blob store: deletes what was last stored more than
 * `retentionDays` ago. Plain (no Nest), so it is tested on real files. */
export class MediaSweeper {
  private running: Promise<number> | null = null;

  constructor(
    private readonly blobs: BlobStore,
    private readonly retentionDays: number,
    private readonly logger: SweepLogger,
  ) {}

  /** Answers how many blobs went (0 when the sweep failed: it is logged and the next one
   * tries again). A sweep asked for while one runs joins it. */
  sweep(): Promise<number> {
    this.running ??= this.sweepOnce().finally(() => (this.running = null));
    return this.running;
  }

  private async sweepOnce(): Promise<number> {
    const cutoff = retentionCutoff(this.retentionDays);
    try {
      const n = await this.blobs.sweep(cutoff);
      if (n > 0) this.logger.log(`deleted ${n} media files stored before ${cutoff.toISOString()}`);
      return n;
    } catch (err) {
      this.logger.error(`media retention sweep failed: ${(err as Error).message}`);
      return 0;
    }
  }
}
