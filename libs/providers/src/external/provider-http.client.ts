import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderCallError, ProviderCallReason } from './provider-call.error';
import { backoffDelay, BackoffOptions, DEFAULT_BACKOFF, parseRetryAfter } from './retry-timing';

export interface ProviderHttpOptions {
  provider: string;
  /** Limit of one attempt: connect, send, the whole answer read. */
  timeoutMs: number;
  /** Limit of the whole call: attempts and waits. A retry whose wait would end past it is not made. */
  retryBudgetMs: number;
  /** Retries after the first attempt, for transient failures only. */
  maxRetries: number;
  /** Strings (API keys) that never appear in an error's text. */
  secrets: readonly string[];
  backoff?: BackoffOptions;
  random?: () => number;
  /** Largest answer read; a larger one is a bad_response. */
  maxResponseBytes?: number;
  /** A provider's own reading of an error answer, when its status alone misleads
   * (Cloud Vision answers 400 to a bad key). Undefined: by status. */
  classifyError?: (status: number, body: unknown) => ProviderCallReason | undefined;
}

export interface ProviderHttpRequest {
  /** Operator-configured (never user input); may carry a key in its query, never logged. */
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: ProviderCallError; retryAfterMs?: number };

const MAX_RESPONSE_BYTES = 1024 * 1024;
/** A retry with less time than this left is not worth starting. */
const MIN_ATTEMPT_MS = 50;

/**
 * POSTs JSON to one provider with a time limit per attempt and retries (exponential
 * backoff with jitter, or the provider's Retry-After) on 429, 5xx, network errors and
 * timeouts, all within a total budget. 400/401/403 and bad answers are not retried.
 * Fails with a ProviderCallError only; its texts never carry the URL or a secret.
 */
export class ProviderHttpClient {
  constructor(private readonly options: ProviderHttpOptions) {}

  /** The parsed answer. `parse` reads the JSON of a 2xx; it throws a ProviderCallError
   * (bad_response, or a retryable one for an item error the provider says is transient). */
  async postJson<T>(request: ProviderHttpRequest, parse: (json: unknown) => T): Promise<T> {
    const { maxRetries, retryBudgetMs, timeoutMs } = this.options;
    const deadline = Date.now() + retryBudgetMs;
    const body = JSON.stringify(request.body);
    let previous: ProviderCallError | null = null;
    for (let retry = 0; ; retry++) {
      const budgetLeft = deadline - Date.now();
      const outcome = await this.attempt(request, body, Math.min(timeoutMs, budgetLeft), parse);
      if (outcome.ok) return outcome.value;
      const { error } = outcome;
      // An attempt the budget cut short says only that the budget ran out: the failure
      // before it says why the provider failed.
      if (previous && error.reason === 'timeout' && budgetLeft < timeoutMs) throw previous;
      previous = error;
      if (!error.retryable || retry >= maxRetries) throw error;
      const wait = outcome.retryAfterMs ?? backoffDelay(retry, this.options.backoff ?? DEFAULT_BACKOFF, this.options.random);
      if (Date.now() + wait + MIN_ATTEMPT_MS > deadline) throw error;
      await sleep(wait);
    }
  }

  private async attempt<T>(request: ProviderHttpRequest, body: string, timeoutMs: number, parse: (json: unknown) => T): Promise<Attempt<T>> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.max(1, timeoutMs));
    let status: number | undefined;
    try {
      const res = await fetch(request.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...request.headers },
        body,
        signal: controller.signal,
        // A provider API does not redirect; following one would send the key elsewhere.
        redirect: 'manual',
      });
      status = res.status;
      const text = await readCapped(res, this.options.maxResponseBytes ?? MAX_RESPONSE_BYTES);
      if (text === undefined) return this.fail('bad_response', false, status, 'answer too large');
      if (status < 200 || status > 299) return this.failStatus(res, status, text);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return this.fail('bad_response', false, status, `not JSON: ${text.slice(0, 80)}`);
      }
      return this.parsed(json, parse, status);
    } catch (err) {
      if (controller.signal.aborted) return this.fail('timeout', true, status, `no complete answer within ${timeoutMs} ms`);
      return this.fail('network', true, status, networkCause(err));
    } finally {
      clearTimeout(timer);
    }
  }

  /** What `parse` makes of the JSON; a throw that is not a ProviderCallError is a bad answer, never a crash. */
  private parsed<T>(json: unknown, parse: (json: unknown) => T, status: number): Attempt<T> {
    try {
      return { ok: true, value: parse(json) };
    } catch (err) {
      if (err instanceof ProviderCallError) return this.fail(err.reason, err.retryable, err.status ?? status, err.providerMessage);
      return this.fail('bad_response', false, status, err instanceof Error ? err.message : 'unreadable answer');
    }
  }

  private failStatus<T>(res: Response, status: number, text: string): Attempt<T> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const message = json === undefined ? text.slice(0, 200) : errorMessageOf(json);
    const reason = this.options.classifyError?.(status, json) ?? reasonOfStatus(status);
    const retryable = reason === 'rate_limited' || reason === 'server_error' || reason === 'timeout';
    const attempt = this.fail<T>(reason, retryable, status, message);
    if (attempt.ok || !retryable) return attempt;
    return { ...attempt, retryAfterMs: parseRetryAfter(res.headers.get('retry-after')) };
  }

  private fail<T>(reason: ProviderCallReason, retryable: boolean, status: number | undefined, message: string): Attempt<T> {
    return { ok: false, error: new ProviderCallError(this.options.provider, reason, retryable, status, this.redact(message)) };
  }

  private redact(text: string): string {
    let out = text;
    for (const secret of this.options.secrets) if (secret.length > 0) out = out.split(secret).join('[redacted]');
    return out.length > 300 ? `${out.slice(0, 300)}…` : out;
  }
}

export function reasonOfStatus(status: number): ProviderCallReason {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 400 || status === 413 || status === 415 || status === 422) return 'bad_request';
  if (status === 429) return 'rate_limited';
  if (status === 408) return 'timeout';
  if (status >= 500 && status !== 501 && status !== 505) return 'server_error';
  return 'http_error';
}

/** The message of the usual error bodies: `{error: {message}}` (OpenAI, Azure, Google,
 * vLLM), `{message}` (older vLLM), `{error: "..."}` (TGI, llama.cpp). */
function errorMessageOf(json: unknown): string {
  if (typeof json !== 'object' || json === null) return '';
  const { error, message } = json as { error?: unknown; message?: unknown };
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const inner = error as { message?: unknown; code?: unknown };
    if (typeof inner.message === 'string') return typeof inner.code === 'string' ? `${inner.code}: ${inner.message}` : inner.message;
  }
  return typeof message === 'string' ? message : '';
}

function networkCause(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : 'network error';
}

/** The answer's text, or undefined past `cap` bytes. */
async function readCapped(res: Response, cap: number): Promise<string | undefined> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
