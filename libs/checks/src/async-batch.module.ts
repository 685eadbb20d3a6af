import { Module } from '@nestjs/common';
import { CheckEngineModule } from './check-engine.module';
import { AsyncBatchRunner } from './async-batch.runner';
import { VideoJobRunner } from './video/video-job.runner';

/** The worker's jobs on `jobs`: async batches (consumer group `batch-runner`) and videos
 * (`video-runner`). The worker app imports it; in embedded mode the one process (api +
 * projector + worker) does. */
@Module({ imports: [CheckEngineModule], providers: [AsyncBatchRunner, VideoJobRunner], exports: [AsyncBatchRunner, VideoJobRunner] })
export class AsyncBatchModule {}
