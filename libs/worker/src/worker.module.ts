import { Module } from '@nestjs/common';
import { WorkerService } from './worker.service';
import { WebhookDispatchModule } from './webhook-dispatch/webhook-dispatch.module';

/**
 * The worker: webhook dispatch, async batches and video jobs consume the log here.
 * Needs EventLogModule (and ReadModelsModule for webhook dispatch). In embedded mode it
 * runs inside the api process.
 */
@Module({ imports: [WebhookDispatchModule], providers: [WorkerService], exports: [WorkerService, WebhookDispatchModule] })
export class WorkerModule {}
