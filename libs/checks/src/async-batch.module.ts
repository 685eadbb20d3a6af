import { Module } from '@nestjs/common';
import { CheckEngineModule } from './check-engine.module';
import { AsyncBatchRunner } from './async-batch.runner';

/** Async batches (consumer group `batch-runner` on `jobs`): a worker job. The worker app
 * imports it; in embedded mode the one process (api + projector + worker) does. */
@Module({ imports: [CheckEngineModule], providers: [AsyncBatchRunner], exports: [AsyncBatchRunner] })
export class AsyncBatchModule {}
