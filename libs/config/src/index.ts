export { AppConfig, ConfigError, loadConfig } from './app-config';
export { ConfigModule } from './config.module';
export { parseProviderPrices, PRICED_PROVIDERS } from './provider-prices';
export type { ProviderPrices } from './provider-prices';
export { runMain } from './run-main';
