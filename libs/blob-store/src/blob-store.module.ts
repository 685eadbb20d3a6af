import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import * as path from 'node:path';
import { AppConfig } from '@cds/config';
import { BLOB_STORE, BlobStore } from './blob-store.port';
import { FsBlobStore } from './fs-blob-store.adapter';

const DAY_MS = 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Deletes media past MEDIA_RETENTION_DAYS, at start and hourly. Runs where the worker
 * runs (the embedded process, or the worker app). */
@Injectable()
export class MediaRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MediaRetention');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.ROLE === 'api' || this.config.ROLE === 'projector') return;
    const sweep = () => {
      const cutoff = new Date(Date.now() - this.config.MEDIA_RETENTION_DAYS * DAY_MS);
      this.blobs.sweep(cutoff).then(
        (n) => n > 0 && this.logger.log(`deleted ${n} media files stored before ${cutoff.toISOString()}`),
        (err: Error) => this.logger.error(`media retention sweep failed: ${err.message}`),
      );
    };
    sweep();
    this.timer = setInterval(sweep, SWEEP_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

/** The blob store of this deployment: files under DATA_DIR/media (a shared volume in
 * distributed mode). */
@Global()
@Module({})
export class BlobStoreModule {
  static forRoot(): DynamicModule {
    return {
      module: BlobStoreModule,
      providers: [
        { provide: BLOB_STORE, inject: [AppConfig], useFactory: (config: AppConfig) => new FsBlobStore(path.join(config.DATA_DIR, 'media')) },
        MediaRetention,
      ],
      exports: [BLOB_STORE],
    };
  }
}
