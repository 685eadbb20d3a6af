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

/** Decorators applied as a stack of them is (the last first), so that the validation rules,
 * and so the order of the messages naming a bad value, are those of the stack written out. */
const stack =
  (...decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const decorate of [...decorators].reverse()) decorate(target, key);
  };

/** The kinds of setting, each one rule said once. */
const IntBetween = (min: number, max: number) => stack(Transform(toInt), IsInt(), Min(min), Max(max));
const NumberBetween = (min: number, max: number) => stack(Transform(toNumber), IsNumber(), Min(min), Max(max));
/** true/false or 1/0. */
const Bool = () => stack(Transform(toBool), IsBoolean());
/** Key material, unset unless given: then at least `min` characters. */
const Secret =
  (min: number): PropertyDecorator =>
  (target, key) =>
    stack(IsOptional(), IsString(), MinLength(min, { message: `${String(key)} must be at least ${min} characters` }))(target, key);
/** A name or key that is set or not (an empty variable counts as unset). */
const OptionalText = () => stack(Transform(emptyAsUnset), IsOptional(), IsString(), MinLength(1));
/** An external provider's own time limit of one HTTP attempt (PROVIDER_TIMEOUT_MS when unset). */
const OwnTimeout = () => stack(IsOptional(), IntBetween(100, 120_000));
/** The two settings of an external provider given together or not at all (its URL, and its
 * key or model): each is validated when either is set (an empty variable counts as unset). */
const givenWith =
  (other: keyof AppConfig, rule: (name: string) => PropertyDecorator[]): PropertyDecorator =>
  (target, key) =>
    stack(
      Transform(emptyAsUnset),
      ValidateIf((c: AppConfig) => c[key as keyof AppConfig] !== undefined || c[other] !== undefined),
      ...rule(String(key)),
    )(target, key);
const UrlWith = (other: keyof AppConfig) =>
  givenWith(other, (name) => [IsUrl(HTTP_URL, { message: `${name} must be an http(s) URL, and is required with ${other}` })]);
const TextWith = (other: keyof AppConfig) =>
  givenWith(other, (name) => [IsString({ message: `${name} is required with ${other}` }), MinLength(1, { message: `${name} is required with ${other}` })]);

/**
 * Every setting is an environment variable, validated at boot; the defaults run the
 * embedded mode on a laptop. A wrong value stops the process with a message naming it.
 */
export class AppConfig {
  @IntBetween(0, 65535) PORT = 3000;

  @IsString() @MinLength(1) HOST = '0.0.0.0';

  @IsString() @MinLength(1) DATA_DIR = './data';

  /** Bootstrap key with every scope in tenant `default`. When unset, one is generated
   * on first start and kept in DATA_DIR/admin-api-key (mode 0600). */
  @Secret(16) ADMIN_API_KEY?: string;

  /** Key that signs guardrail session tokens. When unset it is derived from the admin
   * key, so every replica sharing ADMIN_API_KEY accepts tokens minted by another. */
  @Secret(32) SESSION_TOKEN_SECRET?: string;

  @IsOptional()
  @IsUrl(HTTP_URL, { message: 'PUBLIC_BASE_URL must be an http(s) URL' })
  PUBLIC_BASE_URL?: string;

  @IntBetween(1, 10_000_000) RATE_LIMIT_PER_MINUTE = 1200;

  @IsIn(['fastify', 'express']) HTTP_ADAPTER: 'fastify' | 'express' = 'fastify';

  /** On SIGTERM, how long the requests in flight have to finish; then the connections
   * still open (a client stalled mid-body, a long check) are closed and the shutdown goes on. */
  @IntBetween(0, 600_000) SHUTDOWN_GRACE_MS = 10_000;

  @IsIn(['file', 'kafka']) EVENT_LOG: 'file' | 'kafka' = 'file';

  @IsIn(['sqlite', 'elasticsearch']) READ_MODELS: 'sqlite' | 'elasticsearch' = 'sqlite';

  /** Which modules this process runs. `all` is the embedded default (api + projector
   * + worker in one process). */
  @IsIn(['all', 'api', 'projector', 'worker']) ROLE: 'all' | 'api' | 'projector' | 'worker' = 'all';

  @IsString() KAFKA_BROKERS = '127.0.0.1:9092';

  @IsString() @IsUrl({ require_tld: false, require_protocol: true }) ELASTICSEARCH_URL = 'http://127.0.0.1:9200';

  /** Prefix of Kafka topics and Elasticsearch indices. */
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9._-]{0,40}$/, { message: 'TOPIC_PREFIX must be lowercase letters, digits, dot, dash or underscore' })
  TOPIC_PREFIX = 'cds';

  /** Largest accepted request body, in bytes (413 past it). */
  @IntBetween(1024, 256 * 1024 * 1024) MAX_BODY_BYTES = 1024 * 1024;

  /** Longest accepted text content, in characters (422 CONTENT_TOO_LONG past it). */
  @IntBetween(1, 10_000_000) MAX_TEXT_LENGTH = 100_000;

  /** How long a write waits for its projection before answering anyway. */
  @IntBetween(0, 60_000) PROJECTION_WAIT_MS = 5000;

  /** `json`: one JSON object a line (pino), with the request id; `text`: Nest's own lines. */
  @IsIn(['json', 'text']) LOG_FORMAT: 'json' | 'text' = 'json';

  @IsIn(['error', 'warn', 'log', 'debug', 'verbose']) LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  /** One line per HTTP request at the `log` level (method, route pattern, status, ms,
   * request id, tenant, key id). */
  @IsIn(['on', 'off']) ACCESS_LOG: 'on' | 'off' = 'on';

  /** Access lines written in any one second at most (the rest are counted, in one line). */
  @IntBetween(1, 1_000_000) ACCESS_LOG_MAX_PER_SECOND = 1000;

  @Bool() EGRESS_ALLOW_LOOPBACK = false;

  @Bool() EGRESS_ALLOW_PRIVATE = false;

  /** Key material that encrypts webhook signing secrets at rest (AES-256-GCM). When
   * unset it is derived from the admin key: every process sharing ADMIN_API_KEY reads them. */
  @Secret(32) WEBHOOK_SECRET_KEY?: string;

  /** Wait before each delivery attempt, the first counted from the event. */
  @IsDelays(false) WEBHOOK_RETRY_SCHEDULE = '0,5s,5m,30m,2h,5h,10h,10h';

  /** An attempt succeeds on a 2xx received within this time. */
  @IntBetween(100, 120_000) WEBHOOK_TIMEOUT_MS = 10_000;

  /** A webhook failing continuously for this long is disabled (with a webhook.auto_disabled event). */
  @IsDelays(true) WEBHOOK_DISABLE_AFTER = '3d';

  /** Most items in one POST /v1/batch/check. */
  @IntBetween(1, 10_000) BATCH_MAX_ITEMS = 100;

  /** Most items in one POST /v1/batch/check/async. */
  @IntBetween(1, 100_000) ASYNC_BATCH_MAX_ITEMS = 1000;

  /** Items of one batch checked at the same time. */
  @IntBetween(1, 256) BATCH_CONCURRENCY = 8;

  /** Largest image a check takes, inline (decoded bytes) or fetched from a URL. */
  @IntBetween(1024, 100 * 1024 * 1024) MAX_IMAGE_BYTES = 20 * 1024 * 1024;

  /** Largest image in pixels (width × height, per frame); past it IMAGE_TOO_LARGE, refused before decoding. */
  @IntBetween(1, 268_402_689) MAX_IMAGE_PIXELS = 40_000_000;

  /** Frames of an animated image that are scored, spread over the animation. */
  @IntBetween(1, 64) IMAGE_MAX_FRAMES = 8;

  /** Whole time to fetch an image URL (DNS, redirects, body). */
  @IntBetween(100, 120_000) IMAGE_FETCH_TIMEOUT_MS = 10_000;

  /** Threads running the image model; each loads it once (about 7 s of one core). */
  @IntBetween(1, 64) IMAGE_WORKERS = Math.max(1, os.availableParallelism());

  /** Load the image model at start (true) or at the first image check (false). */
  @Bool() IMAGE_MODEL_PRELOAD = true;

  /** The `local` provider's text model: `embedding` (multilingual-e5-small and calibrated
   * heads, in TEXT_WORKERS threads; installed by `npm run models:fetch`) or `ngram` (the
   * hashed n-gram model, ~0.05 ms a text, no install step). */
  @IsIn(['embedding', 'ngram']) LOCAL_TEXT_MODEL: 'embedding' | 'ngram' = 'embedding';

  /** Threads running the text embedding model; each maps the weights (shared pages) and
   * uses one core. */
  @IntBetween(1, 64) TEXT_WORKERS = Math.max(1, os.availableParallelism());

  /** Answers of the text embedding model kept in memory by content (the text trimmed and
   * in NFC, the model, the language; least recently used out first; ~0.9 KB each): a text
   * seen again, or sent many times at once, is scored once. 0 turns the cache off. */
  @IntBetween(0, 10_000_000) LOCAL_TEXT_CACHE_ENTRIES = 20_000;

  /** Texts (chunks of up to 2,000 characters) waiting for a text embedding thread beyond
   * which a check is refused at once: 503 TEXT_QUEUE_FULL with Retry-After (the seconds the
   * queue takes to drain at the measured pace). Below it, a text waits its turn: late, never
   * answered by another model. */
  @IntBetween(1, 1_000_000) TEXT_QUEUE_LIMIT = 1024;

  /** Early exit of the text embedding model (model/embedding-exit.json): `on` lets a text
   * that heads on an early encoder layer are confident about leave there (clearly below
   * every threshold of the built-in policy, or clearly past it); `off` runs every layer for
   * every text. The stored decision names the layers that answered. */
  @IsIn(['on', 'off']) LOCAL_TEXT_EARLY_EXIT: 'on' | 'off' = 'on';

  /** Skill vetting reads a skill's prompt with the learned prompt-attack heads beside its
   * rules (`on`, the default), or with the rules alone (`off`). At the heads' skill-vetting
   * threshold they flag 2/152 held-out benign look-alikes and catch 39 % of held-out attacks
   * against the rules' 5 % (libs/guardrails/GUARDRAILS.md, "Prompt attacks"); `off` saves the
   * model pass (one pass through layers 1–8 per prompt). */
  @IsIn(['on', 'off']) SKILL_PROMPT_MODEL: 'on' | 'off' = 'on';

  /** Read text in images with Tesseract and score it with the text model. */
  @IsIn(['on', 'off']) IMAGE_OCR: 'on' | 'off' = 'on';

  /** Which OCR engine reads images: `auto` (the tesseract binary when it runs, else
   * tesseract.js, Tesseract in WebAssembly from npm), or one of them only. */
  @IsIn(['auto', 'tesseract', 'tesseract.js']) OCR_ENGINE: 'auto' | 'tesseract' | 'tesseract.js' = 'auto';

  /** Wall-clock limit of one OCR run. */
  @IntBetween(100, 120_000) OCR_TIMEOUT_MS = 10_000;

  /** Largest video, uploaded (413 past it, counted while streaming) or fetched from a URL. */
  @IntBetween(1024, 2 * 1024 * 1024 * 1024) VIDEO_MAX_BYTES = 100 * 1024 * 1024;

  /** Longest video checked when the request gives no maxDurationSeconds (a longer one fails). */
  @IntBetween(1, 24 * 3600) VIDEO_MAX_DURATION_SECONDS = 300;

  /** Seconds between sampled frames when the request gives no frameInterval. */
  @NumberBetween(0.1, 3600) VIDEO_FRAME_INTERVAL = 2;

  /** Frames sampled when the request gives no maxFrames, and the most it may ask for. */
  @IntBetween(1, 10_000) VIDEO_DEFAULT_MAX_FRAMES = 60;

  @IntBetween(1, 10_000) VIDEO_FRAMES_CAP = 300;

  /** Largest frame size in pixels (width × height); a larger video is refused before decoding. */
  @IntBetween(1, 100_000_000) VIDEO_MAX_PIXELS = 3840 * 2160;

  /** Wall-clock limit of one ffmpeg or ffprobe run. */
  @IntBetween(100, 3_600_000) VIDEO_PROCESS_TIMEOUT_MS = 120_000;

  /** Whole time to download a video URL. */
  @IntBetween(100, 3_600_000) VIDEO_FETCH_TIMEOUT_MS = 60_000;

  /** Every k-th sampled frame is read by OCR (and the first, and every scene change); 0: only those. */
  @IntBetween(0, 10_000) VIDEO_OCR_EVERY = 10;

  /** How long a signed evidence URL works after it was handed out. */
  @IntBetween(60, 30 * 86_400) EVIDENCE_URL_TTL_SECONDS = 86_400;

  /** Key material that signs evidence URLs (≥ 32 characters). When unset it is derived from
   * the admin key: every api replica sharing ADMIN_API_KEY accepts the others' URLs. */
  @Secret(32) EVIDENCE_URL_SECRET?: string;

  /** When set, GET /metrics asks for `Authorization: Bearer <METRICS_TOKEN>`; open otherwise. */
  @Secret(16) METRICS_TOKEN?: string;

  /** Images (and their evidence) are kept this long after their last check, then deleted. */
  @IntBetween(1, 3650) MEDIA_RETENTION_DAYS = 30;

  // External moderation providers (libs/providers/src/external/README.md). Each is
  // registered when its key (and endpoint or model) is set; `local` stays the default.

  /** Who scores what a policy routes to no provider of its own (it must be configured;
   * a provider of one modality, e.g. google-vision, is the default of that one only). */
  @IsString()
  @Matches(/^[a-z][a-z0-9_-]{0,63}$/, { message: 'DEFAULT_PROVIDER must be a provider name such as local or openai' })
  DEFAULT_PROVIDER = 'local';

  /** Seconds an external provider's answer is reused for the same content (0: no cache). */
  @IntBetween(0, 7 * 24 * 3600) PROVIDER_CACHE_TTL = 3600;

  /** Answers the provider cache keeps, per process (least recently used out first). */
  @IntBetween(0, 10_000_000) PROVIDER_CACHE_MAX_ENTRIES = 20_000;

  /** Time limit of one HTTP attempt to an external provider (a provider's own *_TIMEOUT_MS wins). */
  @IntBetween(100, 120_000) PROVIDER_TIMEOUT_MS = 5000;

  /** Whole time one provider call may take, attempts and waits between them included. */
  @IntBetween(100, 600_000) PROVIDER_RETRY_BUDGET_MS = 10_000;

  /** Retries after a first failed attempt (429, 5xx, network error, timeout), within the budget. */
  @IntBetween(0, 10) PROVIDER_MAX_RETRIES = 2;

  /** Consecutive failed calls that open a provider's circuit (calls then fail fast). */
  @IntBetween(1, 1000) PROVIDER_CIRCUIT_FAILURES = 5;

  /** How long an open circuit waits before letting one probe call through. */
  @IntBetween(100, 3_600_000) PROVIDER_CIRCUIT_COOLDOWN_MS = 30_000;

  /** Price overrides, USD: `openai=0,azure=0.00075,google-vision.image=0.0015` or JSON; unset: the documented defaults. */
  @Transform(toPrices) @IsProviderPrices() PROVIDER_PRICES: ProviderPrices = {};

  /** Registers the `openai` provider (moderation endpoint). */
  @OptionalText() OPENAI_API_KEY?: string;

  /** API root, with `/v1`. */
  @IsUrl(HTTP_URL, { message: 'OPENAI_BASE_URL must be an http(s) URL' }) OPENAI_BASE_URL = 'https://api.openai.com/v1';

  @IsString() @MinLength(1) OPENAI_MODERATION_MODEL = 'omni-moderation-latest';

  @OwnTimeout() OPENAI_TIMEOUT_MS?: number;

  /** With AZURE_CONTENT_SAFETY_KEY, registers `azure` (Azure AI Content Safety), e.g. https://<name>.cognitiveservices.azure.com. */
  @UrlWith('AZURE_CONTENT_SAFETY_KEY') AZURE_CONTENT_SAFETY_ENDPOINT?: string;

  @TextWith('AZURE_CONTENT_SAFETY_ENDPOINT') AZURE_CONTENT_SAFETY_KEY?: string;

  /** Comma-separated names of text blocklists to match (their hits become the `blocklist` signal). */
  @Transform(emptyAsUnset)
  @IsOptional()
  @Matches(AZURE_BLOCKLISTS, { message: 'AZURE_CONTENT_SAFETY_BLOCKLISTS must be comma-separated blocklist names (letters, digits, - _ . ~, at most 64 each)' })
  AZURE_CONTENT_SAFETY_BLOCKLISTS?: string;

  @OwnTimeout() AZURE_CONTENT_SAFETY_TIMEOUT_MS?: number;

  /** With LLAMAGUARD_MODEL, registers `llamaguard`: an OpenAI-compatible server root with `/v1` (vLLM, TGI, llama.cpp...). */
  @UrlWith('LLAMAGUARD_MODEL') LLAMAGUARD_BASE_URL?: string;

  /** The model name the server serves, e.g. meta-llama/Llama-Guard-3-8B. */
  @TextWith('LLAMAGUARD_BASE_URL') LLAMAGUARD_MODEL?: string;

  /** Sent as `Authorization: Bearer` when set. */
  @OptionalText() LLAMAGUARD_API_KEY?: string;

  /** A Prompt Guard classifier the same server serves (e.g. meta-llama/Llama-Prompt-Guard-2-86M):
   * `llamaguard` then scores prompt_injection and jailbreak through its `/classify` endpoint. */
  @OptionalText() LLAMAGUARD_PROMPT_GUARD_MODEL?: string;

  @OwnTimeout() LLAMAGUARD_TIMEOUT_MS?: number;

  /** Registers `google-vision` (Cloud Vision SafeSearch, images only). */
  @OptionalText() GOOGLE_VISION_API_KEY?: string;

  @IsUrl(HTTP_URL, { message: 'GOOGLE_VISION_BASE_URL must be an http(s) URL' }) GOOGLE_VISION_BASE_URL = 'https://vision.googleapis.com';

  @OwnTimeout() GOOGLE_VISION_TIMEOUT_MS?: number;
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
