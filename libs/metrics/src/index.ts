export { Metrics } from './metrics';
export { MetricsModule } from './metrics.module';
