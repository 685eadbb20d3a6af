import { DynamicModule, Type } from '@nestjs/common';
import { AppConfig, ConfigModule } from '@cds/config';
import { EventLogModule } from '@cds/event-log';
import { ReadModelsModule } from '@cds/read-models';
import { ProvidersModule } from '@cds/providers';
import { BlobStoreModule } from '@cds/blob-store';
import { MetricsModule } from '@cds/metrics';
import { WebhookDispatchModule } from '@cds/webhook-dispatch';
import { AsyncBatchModule } from '@cds/checks';

/** The ports a process that scores content binds from its configuration (the api, and the
 * worker that runs batches and video jobs), in the order they start; `role` names its
 * metrics. */
export function serviceModules(config: AppConfig, role: string): DynamicModule[] {
  return [
    ConfigModule.forRoot(config),
    EventLogModule.forRoot(),
    ReadModelsModule.forRoot(),
    ProvidersModule.forRoot(),
    BlobStoreModule.forRoot(),
    MetricsModule.forRoot(role),
  ];
}

/** The worker's work (its own process, or inside the embedded api): webhook dispatch and
 * retries, async batches and video jobs. */
export const WORKER_MODULES: Type<unknown>[] = [WebhookDispatchModule, AsyncBatchModule];
