import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : value === true || value === 'true' || value === '1' ? true : value === false || value === 'false' || value === '0' ? false : value;

/**
 * Every setting is an environment variable, validated at boot; the defaults run the
 * embedded mode on a laptop. A wrong value stops the process with a message naming it.
 */
export class AppConfig {
  @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  PORT = 3000;

  @IsString() @MinLength(1)
  HOST = '0.0.0.0';

  @IsString() @MinLength(1)
  DATA_DIR = './data';

  /** Bootstrap key with every scope in tenant `default`. When unset, one is generated
   * on first start and kept in DATA_DIR/admin-api-key (mode 0600). */
  @IsOptional() @IsString() @MinLength(16, { message: 'ADMIN_API_KEY must be at least 16 characters' })
  ADMIN_API_KEY?: string;

  /** Key that signs guardrail session tokens. When unset it is derived from the admin
   * key, so every replica sharing ADMIN_API_KEY accepts tokens minted by another. */
  @IsOptional() @IsString() @MinLength(32, { message: 'SESSION_TOKEN_SECRET must be at least 32 characters' })
  SESSION_TOKEN_SECRET?: string;

  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { message: 'PUBLIC_BASE_URL must be an http(s) URL' })
  PUBLIC_BASE_URL?: string;

  @Transform(toInt) @IsInt() @Min(1) @Max(10_000_000)
  RATE_LIMIT_PER_MINUTE = 1200;

  @IsIn(['fastify', 'express'])
  HTTP_ADAPTER: 'fastify' | 'express' = 'fastify';

  @IsIn(['file', 'kafka'])
  EVENT_LOG: 'file' | 'kafka' = 'file';

  @IsIn(['sqlite', 'elasticsearch'])
  READ_MODELS: 'sqlite' | 'elasticsearch' = 'sqlite';

  /** Which modules this process runs. `all` is the embedded default (api + projector
   * + worker in one process). */
  @IsIn(['all', 'api', 'projector', 'worker'])
  ROLE: 'all' | 'api' | 'projector' | 'worker' = 'all';

  @IsString()
  KAFKA_BROKERS = '127.0.0.1:9092';

  @IsString() @IsUrl({ require_tld: false, require_protocol: true })
  ELASTICSEARCH_URL = 'http://127.0.0.1:9200';

  /** Prefix of Kafka topics and Elasticsearch indices. */
  @IsString() @Matches(/^[a-z0-9][a-z0-9._-]{0,40}$/, { message: 'TOPIC_PREFIX must be lowercase letters, digits, dot, dash or underscore' })
  TOPIC_PREFIX = 'cds';

  /** Largest accepted request body, in bytes (413 past it). */
  @Transform(toInt) @IsInt() @Min(1024) @Max(256 * 1024 * 1024)
  MAX_BODY_BYTES = 1024 * 1024;

  /** Longest accepted text content, in characters (422 CONTENT_TOO_LONG past it). */
  @Transform(toInt) @IsInt() @Min(1) @Max(10_000_000)
  MAX_TEXT_LENGTH = 100_000;

  /** How long a write waits for its projection before answering anyway. */
  @Transform(toInt) @IsInt() @Min(0) @Max(60_000)
  PROJECTION_WAIT_MS = 5000;

  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  @Transform(toBool) @IsBoolean()
  EGRESS_ALLOW_LOOPBACK = false;

  @Transform(toBool) @IsBoolean()
  EGRESS_ALLOW_PRIVATE = false;
}

export class ConfigError extends Error {}

/** Read and validate the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(new AppConfig());
  const input: Record<string, unknown> = {};
  for (const k of [...known, 'ADMIN_API_KEY', 'PUBLIC_BASE_URL']) if (env[k] !== undefined) input[k] = env[k];
  const config = plainToInstance(AppConfig, input, { exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => `${e.property}=${JSON.stringify(e.value)}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return config;
}
