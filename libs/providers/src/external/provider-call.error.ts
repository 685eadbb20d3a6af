import { DomainError } from '@cds/errors';

/**
 * Why a call to an external provider failed.
 * - `timeout`, `network`, `rate_limited` (429), `server_error` (5xx): transient, retried within the budget.
 * - `unauthorized` (401/403, or the provider's own "bad key"), `bad_request` (400/413/422: the
 *   provider refused this input), `http_error` (any other status): not retried.
 * - `bad_response`: a 2xx whose body is not JSON or not the documented shape.
 * - `provider_error`: a 2xx carrying the provider's own error for the item (Cloud Vision).
 * - `unsupported_input`: refused before any call (a modality or image format the provider does not take).
 * - `circuit_open`: refused before any call, the provider's circuit is open.
 */
export type ProviderCallReason =
  | 'timeout'
  | 'network'
  | 'rate_limited'
  | 'server_error'
  | 'unauthorized'
  | 'bad_request'
  | 'http_error'
  | 'bad_response'
  | 'provider_error'
  | 'unsupported_input'
  | 'circuit_open';

/** Reasons that say nothing about the provider's health: they never open its circuit. */
const INPUT_REASONS: ReadonlySet<ProviderCallReason> = new Set(['bad_request', 'unsupported_input']);

/**
 * A failed call to an external provider. A DomainError (`unavailable`, code
 * PROVIDER_UNAVAILABLE) so that, when nothing falls back, the api answers 503 with a
 * body that names the provider and the reason and nothing the provider said.
 * `retryable`: another call later (or after a fallback) may succeed.
 */
export class ProviderCallError extends DomainError {
  constructor(
    readonly provider: string,
    readonly reason: ProviderCallReason,
    readonly retryable: boolean,
    /** The HTTP status when the provider answered one. */
    readonly status?: number,
    /** What the provider said (its error message, secrets redacted), for logs only. */
    readonly providerMessage = '',
  ) {
    super(
      'unavailable',
      'PROVIDER_UNAVAILABLE',
      'Provider unavailable',
      `provider "${provider}" failed: ${reason}${status === undefined ? '' : ` (HTTP ${status})`}`,
    );
    this.name = 'ProviderCallError';
  }

  /** Whether this failure counts against the provider's circuit. */
  get countsAsFailure(): boolean {
    return !INPUT_REASONS.has(this.reason);
  }
}

/** A 2xx body that is not what the provider documents. */
export function badResponse(provider: string, what: string, status?: number): ProviderCallError {
  return new ProviderCallError(provider, 'bad_response', false, status, what);
}

export function unsupportedInput(provider: string, what: string): ProviderCallError {
  return new ProviderCallError(provider, 'unsupported_input', false, undefined, what);
}
