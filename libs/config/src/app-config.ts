import 'reflect-metadata';
import * as os from 'node:os';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { parseRetrySchedule } from '@cds/backoff';
import { parseProviderPrices, ProviderPrices } from './provider-prices';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toNumber = toInt;
/** An empty variable (`OPENAI_API_KEY=` in an env file) counts as unset. */
const emptyAsUnset = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : value === true || value === 'true' || value === '1'
      ? true
      : value === false || value === 'false' || value === '0'
        ? false
        : value;

/** A value parseRetrySchedule accepts (`0,5s,5m`), or with `single`, exactly one delay (`3d`). */
const IsDelays = (single: boolean) =>
  ValidateBy({
    name: 'isDelays',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string') return false;
        try {
          return parseRetrySchedule(value).length === 1 || !single;
        } catch {
          return false;
        }
      },
      defaultMessage: (args) =>
        single
          ? `${args?.property} must be one delay with a unit, e.g. 3d, 12h, 30m, 1s (at most 7d)`
          : `${args?.property} must be comma-separated delays with units, e.g. 0,5s,5m,30m,2h (each at most 7d, at most 50 entries)`,
    },
  });

/** PROVIDER_PRICES read into a table; a value that does not parse is kept as it is, for the validator to name. */
const toPrices = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return {};
  if (typeof value !== 'string') return value;
  return priceError(value) === undefined ? parseProviderPrices(value) : value;
};

const IsProviderPrices = () =>
  ValidateBy({
    name: 'isProviderPrices',
    validator: {
      validate: (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value),
      defaultMessage: (args) =>
        `${args?.property} must be provider=price pairs or a JSON object, e.g. openai=0,azure=0.00075 (${typeof args?.value === 'string' ? priceError(args.value) : 'not a string'})`,
    },
  });

function priceError(value: string): string | undefined {
  try {
    parseProviderPrices(value);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

const HTTP_URL = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };
/** Azure blocklist names: letters, digits, `-`, `_`, `.`, `~`, at most 64 each. */
const AZURE_BLOCKLISTS = /^[A-Za-z0-9._~-]{1,64}(\s*,\s*[A-Za-z0-9._~-]{1,64})*$/;

/**
 * Every setting is an environment variable, validated at boot; the defaults run the
 * embedded mode on a laptop. A wrong value stops the process with a message naming it.
 */
export class AppConfig {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  @MinLength(1)
  HOST = '0.0.0.0';

  @IsString()
  @MinLength(1)
  DATA_DIR = './data';

  /** Bootstrap key with every scope in tenant `default`. When unset, one is generated
   * on first start and kept in DATA_DIR/admin-api-key (mode 0600). */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'ADMIN_API_KEY must be at least 16 characters' })
  ADMIN_API_KEY?: string;

  /** Key that signs guardrail session tokens. When unset it is derived from the admin
   * key, so every replica sharing ADMIN_API_KEY accepts tokens minted by another. */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'SESSION_TOKEN_SECRET must be at least 32 characters' })
  SESSION_TOKEN_SECRET?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { message: 'PUBLIC_BASE_URL must be an http(s) URL' })
  PUBLIC_BASE_URL?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  RATE_LIMIT_PER_MINUTE = 1200;

  @IsIn(['fastify', 'express'])
  HTTP_ADAPTER: 'fastify' | 'express' = 'fastify';

  /** On SIGTERM, how long the requests in flight have to finish; then the connections
   * still open (a client stalled mid-body, a long check) are closed and the shutdown goes on. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_GRACE_MS = 10_000;

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

  @IsString()
  @IsUrl({ require_tld: false, require_protocol: true })
  ELASTICSEARCH_URL = 'http://127.0.0.1:9200';

  /** Prefix of Kafka topics and Elasticsearch indices. */
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9._-]{0,40}$/, { message: 'TOPIC_PREFIX must be lowercase letters, digits, dot, dash or underscore' })
  TOPIC_PREFIX = 'cds';

  /** Largest accepted request body, in bytes (413 past it). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(256 * 1024 * 1024)
  MAX_BODY_BYTES = 1024 * 1024;

  /** Longest accepted text content, in characters (422 CONTENT_TOO_LONG past it). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  MAX_TEXT_LENGTH = 100_000;

  /** How long a write waits for its projection before answering anyway. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  PROJECTION_WAIT_MS = 5000;

  /** `json`: one JSON object a line (pino), with the request id; `text`: Nest's own lines. */
  @IsIn(['json', 'text'])
  LOG_FORMAT: 'json' | 'text' = 'json';

  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  /** One line per HTTP request at the `log` level (method, route pattern, status, ms,
   * request id, tenant, key id). */
  @IsIn(['on', 'off'])
  ACCESS_LOG: 'on' | 'off' = 'on';

  /** Access lines written in any one second at most (the rest are counted, in one line). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  ACCESS_LOG_MAX_PER_SECOND = 1000;

  @Transform(toBool)
  @IsBoolean()
  EGRESS_ALLOW_LOOPBACK = false;

  @Transform(toBool)
  @IsBoolean()
  EGRESS_ALLOW_PRIVATE = false;

  /** Key material that encrypts webhook signing secrets at rest (AES-256-GCM). When
   * unset it is derived from the admin key: every process sharing ADMIN_API_KEY reads them. */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'WEBHOOK_SECRET_KEY must be at least 32 characters' })
  WEBHOOK_SECRET_KEY?: string;

  /** Wait before each delivery attempt, the first counted from the event. */
  @IsDelays(false)
  WEBHOOK_RETRY_SCHEDULE = '0,5s,5m,30m,2h,5h,10h,10h';

  /** An attempt succeeds on a 2xx received within this time. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /** A webhook failing continuously for this long is disabled (with a webhook.auto_disabled event). */
  @IsDelays(true)
  WEBHOOK_DISABLE_AFTER = '3d';

  /** Most items in one POST /v1/batch/check. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  BATCH_MAX_ITEMS = 100;

  /** Most items in one POST /v1/batch/check/async. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  ASYNC_BATCH_MAX_ITEMS = 1000;

  /** Items of one batch checked at the same time. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(256)
  BATCH_CONCURRENCY = 8;

  /** Largest image a check takes, inline (decoded bytes) or fetched from a URL. */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(100 * 1024 * 1024)
  MAX_IMAGE_BYTES = 20 * 1024 * 1024;

  /** Largest image in pixels (width × height, per frame); past it IMAGE_TOO_LARGE, refused before decoding. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(268_402_689)
  MAX_IMAGE_PIXELS = 40_000_000;

  /** Frames of an animated image that are scored, spread over the animation. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  IMAGE_MAX_FRAMES = 8;

  /** Whole time to fetch an image URL (DNS, redirects, body). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  IMAGE_FETCH_TIMEOUT_MS = 10_000;

  /** Threads running the image model; each loads it once (about 7 s of one core). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  IMAGE_WORKERS = Math.max(1, os.availableParallelism());

  /** Load the image model at start (true) or at the first image check (false). */
  @Transform(toBool)
  @IsBoolean()
  IMAGE_MODEL_PRELOAD = true;

  /** The `local` provider's text model: `embedding` (multilingual-e5-small and calibrated
   * heads, in TEXT_WORKERS threads; installed by `npm run models:fetch`) or `ngram` (the
   * hashed n-gram model, ~0.05 ms a text, no install step). */
  @IsIn(['embedding', 'ngram'])
  LOCAL_TEXT_MODEL: 'embedding' | 'ngram' = 'embedding';

  /** Threads running the text embedding model; each maps the weights (shared pages) and
   * uses one core. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  TEXT_WORKERS = Math.max(1, os.availableParallelism());

  /** Answers of the text embedding model kept in memory by content (the text trimmed and
   * in NFC, the model, the language; least recently used out first; ~0.9 KB each): a text
   * seen again, or sent many times at once, is scored once. 0 turns the cache off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  LOCAL_TEXT_CACHE_ENTRIES = 20_000;

  /** Texts (chunks of up to 2,000 characters) waiting for a text embedding thread beyond
   * which a check is refused at once: 503 TEXT_QUEUE_FULL with Retry-After (the seconds the
   * queue takes to drain at the measured pace). Below it, a text waits its turn: late, never
   * answered by another model. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  TEXT_QUEUE_LIMIT = 1024;

  /** Early exit of the text embedding model (model/embedding-exit.json): `on` lets a text
   * that heads on an early encoder layer are confident about leave there (clearly below
   * every threshold of the built-in policy, or clearly past it); `off` runs every layer for
   * every text. The stored decision names the layers that answered. */
  @IsIn(['on', 'off'])
  LOCAL_TEXT_EARLY_EXIT: 'on' | 'off' = 'on';

  /** Skill vetting reads a skill's prompt with the learned prompt-attack heads beside its
   * rules (`on`, the default), or with the rules alone (`off`). At the heads' skill-vetting
   * threshold they flag 2/152 held-out benign look-alikes and catch 39 % of held-out attacks
   * against the rules' 5 % (libs/guardrails/GUARDRAILS.md, "Prompt attacks"); `off` saves the
   * model pass (one pass through layers 1–8 per prompt). */
  @IsIn(['on', 'off'])
  SKILL_PROMPT_MODEL: 'on' | 'off' = 'on';

  /** Read text in images with Tesseract and score it with the text model. */
  @IsIn(['on', 'off'])
  IMAGE_OCR: 'on' | 'off' = 'on';

  /** Which OCR engine reads images: `auto` (the tesseract binary when it runs, else
   * tesseract.js, Tesseract in WebAssembly from npm), or one of them only. */
  @IsIn(['auto', 'tesseract', 'tesseract.js'])
  OCR_ENGINE: 'auto' | 'tesseract' | 'tesseract.js' = 'auto';

  /** Wall-clock limit of one OCR run. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  OCR_TIMEOUT_MS = 10_000;

  /** Largest video, uploaded (413 past it, counted while streaming) or fetched from a URL. */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(2 * 1024 * 1024 * 1024)
  VIDEO_MAX_BYTES = 100 * 1024 * 1024;

  /** Longest video checked when the request gives no maxDurationSeconds (a longer one fails). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(24 * 3600)
  VIDEO_MAX_DURATION_SECONDS = 300;

  /** Seconds between sampled frames when the request gives no frameInterval. */
  @Transform(toNumber)
  @IsNumber()
  @Min(0.1)
  @Max(3600)
  VIDEO_FRAME_INTERVAL = 2;

  /** Frames sampled when the request gives no maxFrames, and the most it may ask for. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  VIDEO_DEFAULT_MAX_FRAMES = 60;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  VIDEO_FRAMES_CAP = 300;

  /** Largest frame size in pixels (width × height); a larger video is refused before decoding. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000_000)
  VIDEO_MAX_PIXELS = 3840 * 2160;

  /** Wall-clock limit of one ffmpeg or ffprobe run. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  VIDEO_PROCESS_TIMEOUT_MS = 120_000;

  /** Whole time to download a video URL. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  VIDEO_FETCH_TIMEOUT_MS = 60_000;

  /** Every k-th sampled frame is read by OCR (and the first, and every scene change); 0: only those. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10_000)
  VIDEO_OCR_EVERY = 10;

  /** How long a signed evidence URL works after it was handed out. */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(30 * 86_400)
  EVIDENCE_URL_TTL_SECONDS = 86_400;

  /** Key material that signs evidence URLs (≥ 32 characters). When unset it is derived from
   * the admin key: every api replica sharing ADMIN_API_KEY accepts the others' URLs. */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'EVIDENCE_URL_SECRET must be at least 32 characters' })
  EVIDENCE_URL_SECRET?: string;

  /** When set, GET /metrics asks for `Authorization: Bearer <METRICS_TOKEN>`; open otherwise. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters' })
  METRICS_TOKEN?: string;

  /** Images (and their evidence) are kept this long after their last check, then deleted. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  MEDIA_RETENTION_DAYS = 30;

  // External moderation providers (libs/providers/src/external/README.md). Each is
  // registered when its key (and endpoint or model) is set; `local` stays the default.

  /** Who scores what a policy routes to no provider of its own (it must be configured;
   * a provider of one modality, e.g. google-vision, is the default of that one only). */
  @IsString()
  @Matches(/^[a-z][a-z0-9_-]{0,63}$/, { message: 'DEFAULT_PROVIDER must be a provider name such as local or openai' })
  DEFAULT_PROVIDER = 'local';

  /** Seconds an external provider's answer is reused for the same content (0: no cache). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(7 * 24 * 3600)
  PROVIDER_CACHE_TTL = 3600;

  /** Answers the provider cache keeps, per process (least recently used out first). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  PROVIDER_CACHE_MAX_ENTRIES = 20_000;

  /** Time limit of one HTTP attempt to an external provider (a provider's own *_TIMEOUT_MS wins). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  PROVIDER_TIMEOUT_MS = 5000;

  /** Whole time one provider call may take, attempts and waits between them included. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  PROVIDER_RETRY_BUDGET_MS = 10_000;

  /** Retries after a first failed attempt (429, 5xx, network error, timeout), within the budget. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10)
  PROVIDER_MAX_RETRIES = 2;

  /** Consecutive failed calls that open a provider's circuit (calls then fail fast). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  PROVIDER_CIRCUIT_FAILURES = 5;

  /** How long an open circuit waits before letting one probe call through. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  PROVIDER_CIRCUIT_COOLDOWN_MS = 30_000;

  /** Price overrides, USD: `openai=0,azure=0.00075,google-vision.image=0.0015` or JSON; unset: the documented defaults. */
  @Transform(toPrices)
  @IsProviderPrices()
  PROVIDER_PRICES: ProviderPrices = {};

  /** Registers the `openai` provider (moderation endpoint). */
  @Transform(emptyAsUnset)
  @IsOptional()
  @IsString()
  @MinLength(1)
  OPENAI_API_KEY?: string;

  /** API root, with `/v1`. */
  @IsUrl(HTTP_URL, { message: 'OPENAI_BASE_URL must be an http(s) URL' })
  OPENAI_BASE_URL = 'https://api.openai.com/v1';

  @IsString()
  @MinLength(1)
  OPENAI_MODERATION_MODEL = 'omni-moderation-latest';

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  OPENAI_TIMEOUT_MS?: number;

  /** With AZURE_CONTENT_SAFETY_KEY, registers `azure` (Azure AI Content Safety), e.g. https://<name>.cognitiveservices.azure.com. */
  @Transform(emptyAsUnset)
  @ValidateIf((c: AppConfig) => c.AZURE_CONTENT_SAFETY_ENDPOINT !== undefined || c.AZURE_CONTENT_SAFETY_KEY !== undefined)
  @IsUrl(HTTP_URL, { message: 'AZURE_CONTENT_SAFETY_ENDPOINT must be an http(s) URL, and is required with AZURE_CONTENT_SAFETY_KEY' })
  AZURE_CONTENT_SAFETY_ENDPOINT?: string;

  @Transform(emptyAsUnset)
  @ValidateIf((c: AppConfig) => c.AZURE_CONTENT_SAFETY_ENDPOINT !== undefined || c.AZURE_CONTENT_SAFETY_KEY !== undefined)
  @IsString({ message: 'AZURE_CONTENT_SAFETY_KEY is required with AZURE_CONTENT_SAFETY_ENDPOINT' })
  @MinLength(1, { message: 'AZURE_CONTENT_SAFETY_KEY is required with AZURE_CONTENT_SAFETY_ENDPOINT' })
  AZURE_CONTENT_SAFETY_KEY?: string;

  /** Comma-separated names of text blocklists to match (their hits become the `blocklist` signal). */
  @Transform(emptyAsUnset)
  @IsOptional()
  @Matches(AZURE_BLOCKLISTS, { message: 'AZURE_CONTENT_SAFETY_BLOCKLISTS must be comma-separated blocklist names (letters, digits, - _ . ~, at most 64 each)' })
  AZURE_CONTENT_SAFETY_BLOCKLISTS?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  AZURE_CONTENT_SAFETY_TIMEOUT_MS?: number;

  /** With LLAMAGUARD_MODEL, registers `llamaguard`: an OpenAI-compatible server root with `/v1` (vLLM, TGI, llama.cpp...). */
  @Transform(emptyAsUnset)
  @ValidateIf((c: AppConfig) => c.LLAMAGUARD_BASE_URL !== undefined || c.LLAMAGUARD_MODEL !== undefined)
  @IsUrl(HTTP_URL, { message: 'LLAMAGUARD_BASE_URL must be an http(s) URL, and is required with LLAMAGUARD_MODEL' })
  LLAMAGUARD_BASE_URL?: string;

  /** The model name the server serves, e.g. meta-llama/Llama-Guard-3-8B. */
  @Transform(emptyAsUnset)
  @ValidateIf((c: AppConfig) => c.LLAMAGUARD_BASE_URL !== undefined || c.LLAMAGUARD_MODEL !== undefined)
  @IsString({ message: 'LLAMAGUARD_MODEL is required with LLAMAGUARD_BASE_URL' })
  @MinLength(1, { message: 'LLAMAGUARD_MODEL is required with LLAMAGUARD_BASE_URL' })
  LLAMAGUARD_MODEL?: string;

  /** Sent as `Authorization: Bearer` when set. */
  @Transform(emptyAsUnset)
  @IsOptional()
  @IsString()
  @MinLength(1)
  LLAMAGUARD_API_KEY?: string;

  /** A Prompt Guard classifier the same server serves (e.g. meta-llama/Llama-Prompt-Guard-2-86M):
   * `llamaguard` then scores prompt_injection and jailbreak through its `/classify` endpoint. */
  @Transform(emptyAsUnset)
  @IsOptional()
  @IsString()
  @MinLength(1)
  LLAMAGUARD_PROMPT_GUARD_MODEL?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  LLAMAGUARD_TIMEOUT_MS?: number;

  /** Registers `google-vision` (Cloud Vision SafeSearch, images only). */
  @Transform(emptyAsUnset)
  @IsOptional()
  @IsString()
  @MinLength(1)
  GOOGLE_VISION_API_KEY?: string;

  @IsUrl(HTTP_URL, { message: 'GOOGLE_VISION_BASE_URL must be an http(s) URL' })
  GOOGLE_VISION_BASE_URL = 'https://vision.googleapis.com';

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  GOOGLE_VISION_TIMEOUT_MS?: number;
}

/** Settings without a default: read from the environment only when set. */
const OPTIONAL_KEYS = [
  'ADMIN_API_KEY',
  'PUBLIC_BASE_URL',
  'WEBHOOK_SECRET_KEY',
  'EVIDENCE_URL_SECRET',
  'METRICS_TOKEN',
  'OPENAI_API_KEY',
  'OPENAI_TIMEOUT_MS',
  'AZURE_CONTENT_SAFETY_ENDPOINT',
  'AZURE_CONTENT_SAFETY_KEY',
  'AZURE_CONTENT_SAFETY_BLOCKLISTS',
  'AZURE_CONTENT_SAFETY_TIMEOUT_MS',
  'LLAMAGUARD_BASE_URL',
  'LLAMAGUARD_MODEL',
  'LLAMAGUARD_API_KEY',
  'LLAMAGUARD_TIMEOUT_MS',
  'GOOGLE_VISION_API_KEY',
  'GOOGLE_VISION_TIMEOUT_MS',
];

export class ConfigError extends Error {}

/** Read and validate the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(new AppConfig());
  const input: Record<string, unknown> = {};
  for (const k of [...known, ...OPTIONAL_KEYS]) if (env[k] !== undefined) input[k] = env[k];
  const config = plainToInstance(AppConfig, input, { exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => `${e.property}=${JSON.stringify(e.value)}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return config;
}
