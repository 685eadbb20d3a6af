import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@cds/config';
import { ProjectorModule } from '@cds/projector';
import { serviceModules, WORKER_MODULES } from '@cds/bootstrap';
import { ApiModule } from './api.module';
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
        ...serviceModules(config, config.ROLE),
        { module: AdminKeyModule, global: true, providers: [{ provide: AdminKey, useValue: admin }], exports: [AdminKey] },
        ApiModule,
        ...(embedded ? [ProjectorModule, ...WORKER_MODULES] : []),
      ],
    };
  }
}

@Module({})
class AdminKeyModule {}
