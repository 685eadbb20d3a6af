/**
 * Every failure of a CdsClient call: an HTTP error answered by the service (its body
 * `{error, code, details}`, plus `retryAfter` on a 429), or a request that got no answer
 * (`status` 0, code `NETWORK_ERROR` or `TIMEOUT`, the underlying error as `cause`).
 */
export class CdsError extends Error {
  override readonly name = 'CdsError';
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  /** Stable code: `POLICY_NOT_FOUND`, `VALIDATION_ERROR`, `RATE_LIMITED`, ... */
  readonly code: string;
  /** The body's short human summary. */
  readonly error: string;
  readonly details: string;
  /** Seconds to wait, from the 429 body or the `Retry-After` header. */
  readonly retryAfter: number | undefined;
  readonly method: string;
  readonly path: string;

  constructor(init: { status: number; code: string; error: string; details?: string; retryAfter?: number; method: string; path: string; cause?: unknown }) {
    const details = init.details ?? '';
    super(`${init.method} ${init.path}: ${init.status || 'no answer'} ${init.code}: ${init.error}${details ? ` (${details})` : ''}`, { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.error = init.error;
    this.details = details;
    this.retryAfter = init.retryAfter;
    this.method = init.method;
    this.path = init.path;
  }
}

/**
 * The error of a non-2xx answer. The service always answers `{error, code, details}`;
 * anything else (a proxy's HTML page, an empty body) still becomes a CdsError, with code
 * `HTTP_<status>` and the start of the body as details.
 */
export function errorFromResponse(
  status: number,
  statusText: string,
  bodyText: string,
  retryAfterHeader: string | null,
  request: { method: string; path: string },
  nowMs: number,
): CdsError {
  let body: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    /* not JSON */
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const bodyRetry = body && typeof body.retryAfter === 'number' && Number.isFinite(body.retryAfter) ? body.retryAfter : undefined;
  const headerRetryMs = parseRetryAfter(retryAfterHeader, nowMs);
  return new CdsError({
    status,
    code: str(body?.code) ?? `HTTP_${status}`,
    error: str(body?.error) ?? (statusText || `HTTP ${status}`),
    details: str(body?.details) ?? (body ? '' : bodyText.replace(/\s+/g, ' ').trim().slice(0, 200)),
    retryAfter: bodyRetry ?? (headerRetryMs === undefined ? undefined : headerRetryMs / 1000),
    ...request,
  });
}

/** `Retry-After` as milliseconds: delta-seconds (what the service sends) or an HTTP date. */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header == null) return undefined;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  // An HTTP date names its day and month ("Wed, 21 Oct 2015 07:28:00 GMT").
  const at = /[a-z]/i.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
