import { Module } from '@nestjs/common';
import { WebhookDispatchModule } from './webhook-dispatch/webhook-dispatch.module';

/**
 * The worker's consumers of the log that need no check engine: webhook dispatch and
 * retries. Needs EventLogModule and ReadModelsModule from its host. The worker app adds
 * async batches (AsyncBatchModule of @cds/checks, which brings the check
 * engine); in embedded mode the api process hosts both.
 */
@Module({ imports: [WebhookDispatchModule], exports: [WebhookDispatchModule] })
export class WorkerModule {}
