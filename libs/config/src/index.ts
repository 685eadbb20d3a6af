export { AppConfig, ConfigError, loadConfig } from './app-config';
export { ConfigModule } from './config.module';
