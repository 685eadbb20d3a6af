import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import * as path from 'node:path';
import { AppConfig } from '@cds/config';
import { BLOB_STORE, BlobStore } from './blob-store.port';
import { FsBlobStore } from './fs-blob-store.adapter';
import { MediaSweeper } from './media-sweeper';

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
    const sweeper = new MediaSweeper(this.blobs, this.config.MEDIA_RETENTION_DAYS, this.logger);
    void sweeper.sweep();
    this.timer = setInterval(() => void sweeper.sweep(), SWEEP_EVERY_MS);
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
        {
          provide: BLOB_STORE,
          inject: [AppConfig],
          useFactory: (config: AppConfig) => new FsBlobStore(path.join(config.DATA_DIR, 'media'), config.MEDIA_RETENTION_DAYS),
        },
        MediaRetention,
      ],
      exports: [BLOB_STORE],
    };
  }
}
