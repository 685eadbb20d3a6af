/**
 * A failure the caller can act on. Carries a stable code and no HTTP: the api's
 * exception filter maps the kind to a status and the spec's body {error, code, details}.
 */
export type DomainErrorKind =
  | 'bad_request' // 400: the body cannot be read at all
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'too_large' // 413
  | 'invalid' // 422: well-formed but invalid parameters
  | 'rate_limited' // 429
  | 'unavailable'; // 503: a dependency is down; retryable

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    readonly details = '',
    /** Seconds after which a retry may succeed (the filter sends it as `Retry-After`). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (code: string, message: string, details = '') => new DomainError('not_found', code, message, details);
export const invalid = (code: string, message: string, details = '') => new DomainError('invalid', code, message, details);
