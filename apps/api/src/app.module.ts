import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, ConfigModule } from '@cds/config';
import { EventLogModule } from '@cds/event-log';
import { ReadModelsModule } from '@cds/read-models';
import { ProvidersModule } from '@cds/providers';
import { BlobStoreModule } from '@cds/blob-store';
import { MetricsModule } from '@cds/metrics';
import { ProjectorModule } from '@cds/projector';
import { WebhookDispatchModule } from '@cds/webhook-dispatch';
import { ApiModule } from './api.module';
import { AsyncBatchModule } from '@cds/checks';
import { AdminKey } from './keys/admin-key';

/** The api process. In embedded mode (ROLE=all) it also hosts the projector and the
 * worker, so one process serves everything. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, admin: AdminKey): DynamicModule {
    const embedded = config.ROLE === 'all';
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        EventLogModule.forRoot(),
        ReadModelsModule.forRoot(),
        ProvidersModule.forRoot(),
        BlobStoreModule.forRoot(),
        MetricsModule.forRoot(config.ROLE),
        { module: AdminKeyModule, global: true, providers: [{ provide: AdminKey, useValue: admin }], exports: [AdminKey] },
        ApiModule,
        ...(embedded ? [ProjectorModule, WebhookDispatchModule, AsyncBatchModule] : []),
      ],
    };
  }
}

@Module({})
class AdminKeyModule {}
