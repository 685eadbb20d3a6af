import { DynamicModule, Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';

/** One Metrics per process, for every module that records into it. */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(role: string): DynamicModule {
    return { module: MetricsModule, providers: [{ provide: Metrics, useValue: new Metrics(role) }], exports: [Metrics] };
  }
}
