import { CdsError, errorFromResponse, parseRetryAfter } from './cds.error';
import { AttemptOutcome, isRetryable, nextDelay, RetryMode } from './retry.policy';

/** Time, injectable so tests run the retry schedule without waiting. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** Options every client method takes as its last argument. */
export interface RequestOptions {
  /** Cancels the call, its retries and the waits between them. */
  signal?: AbortSignal;
  /** Per attempt; overrides the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Overrides the client's `retries` for this call. */
  retries?: number;
}

export interface TransportConfig {
  baseUrl: string;
  apiKey: string;
  retries: number;
  fetch: typeof fetch;
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
  timeoutMs: number;
  clock: Clock;
  random: () => number;
  userAgent: string;
}

type Query = Record<string, string | number | boolean | undefined | null>;

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Query;
  /** JSON body. */
  body?: unknown;
  /** A multipart body, built afresh for each attempt. */
  form?: () => FormData;
  headers?: Record<string, string>;
  retry: RetryMode;
  /** `json` (default) or the raw bytes with their content type. */
  accept?: 'json' | 'bytes';
}

/** Connection failures where the request certainly never reached the service. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** HTTP with the service's conventions: bearer key, JSON, CdsError, retries. */
export class HttpTransport {
  constructor(private readonly config: TransportConfig) {}

  async request<T>(call: Call, opts: RequestOptions = {}): Promise<T> {
    const c = this.config;
    const url = this.url(call.path, call.query);
    const maxRetries = opts.retries ?? c.retries;
    for (let retry = 0; ; retry++) {
      const attempt = await this.attempt(call, url, opts);
      if (attempt.ok) return attempt.value as T;
      const { error, outcome, retryAfterMs } = attempt;
      const delay = retry < maxRetries && isRetryable(outcome, call.retry) ? nextDelay(retry, retryAfterMs, c, c.random) : null;
      if (delay === null) throw error;
      await c.clock.sleep(delay, opts.signal);
    }
  }

  private async attempt(
    call: Call,
    url: string,
    opts: RequestOptions,
  ): Promise<{ ok: true; value: unknown } | { ok: false; error: CdsError; outcome: AttemptOutcome; retryAfterMs?: number }> {
    const c = this.config;
    const where = { method: call.method, path: call.path };
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? c.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    const headers: Record<string, string> = {
      authorization: `Bearer ${c.apiKey}`,
      accept: call.accept === 'bytes' ? '*/*' : 'application/json',
      'user-agent': c.userAgent,
      ...call.headers,
    };
    let body: string | FormData | undefined;
    if (call.form) body = call.form();
    else if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
    }
    try {
      const res = await c.fetch(url, { method: call.method, headers, body, signal });
      if (res.ok) {
        if (call.accept === 'bytes') {
          return {
            ok: true,
            value: { contentType: res.headers.get('content-type') ?? 'application/octet-stream', bytes: Buffer.from(await res.arrayBuffer()) },
          };
        }
        const text = await res.text();
        if (text === '') return { ok: true, value: undefined };
        try {
          return { ok: true, value: JSON.parse(text) };
        } catch {
          const error = new CdsError({ status: res.status, code: 'INVALID_RESPONSE', error: 'The answer is not JSON', details: text.slice(0, 200), ...where });
          return { ok: false, error, outcome: { kind: 'http', status: res.status, code: error.code } };
        }
      }
      const retryAfterHeader = res.headers.get('retry-after');
      const error = errorFromResponse(res.status, res.statusText, await res.text(), retryAfterHeader, where, c.clock.now());
      const retryAfterMs = parseRetryAfter(retryAfterHeader, c.clock.now()) ?? (error.retryAfter === undefined ? undefined : error.retryAfter * 1000);
      return { ok: false, error, outcome: { kind: 'http', status: res.status, code: error.code }, retryAfterMs };
    } catch (err) {
      // The caller's own abort is not a failure to report or retry: it propagates as is.
      if (opts.signal?.aborted) throw opts.signal.reason ?? err;
      const timedOut = timeout.aborted;
      const code = timedOut ? 'TIMEOUT' : 'NETWORK_ERROR';
      const reason = timedOut ? `no answer within ${opts.timeoutMs ?? c.timeoutMs} ms` : describeNetworkError(err);
      const error = new CdsError({ status: 0, code, error: timedOut ? 'Request timed out' : 'Network error', details: reason, cause: err, ...where });
      return { ok: false, error, outcome: { kind: 'network', connected: timedOut || !neverConnected(err) } };
    }
  }

  private url(path: string, query?: Query): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) params.set(k, String(v));
    const qs = params.toString();
    return `${this.config.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }
}

function causeCodes(err: unknown): string[] {
  const cause = (err as { cause?: unknown })?.cause ?? err;
  if (cause instanceof AggregateError) return cause.errors.map((e) => (e as { code?: string })?.code ?? '');
  const code = (cause as { code?: unknown })?.code;
  return typeof code === 'string' ? [code] : [];
}

function neverConnected(err: unknown): boolean {
  const codes = causeCodes(err);
  return codes.length > 0 && codes.every((c) => NOT_CONNECTED.has(c));
}

function describeNetworkError(err: unknown): string {
  // undici says "fetch failed" and puts the reason (connect ECONNREFUSED 127.0.0.1:3000) in the cause.
  const cause = (err as { cause?: unknown })?.cause;
  if (cause instanceof AggregateError) return cause.errors.map((e) => (e instanceof Error ? e.message : String(e))).join('; ');
  if (cause instanceof Error && cause.message) return cause.message;
  return err instanceof Error ? err.message : String(err);
}
