import { CircuitState } from '../port/provider.port';
import { CircuitBreaker } from './circuit-breaker';
import { ProviderCallError } from './provider-call.error';
import { ProviderHttpClient, ProviderHttpOptions } from './provider-http.client';
import { BackoffOptions } from './retry-timing';

/** How an external provider is called: limits, retries, circuit. */
export interface CallSettings {
  timeoutMs: number;
  retryBudgetMs: number;
  maxRetries: number;
  circuitFailures: number;
  circuitCooldownMs: number;
  /** Tests shorten the waits. */
  backoff?: BackoffOptions;
  now?: () => number;
}

export const DEFAULT_CALL_SETTINGS: CallSettings = {
  timeoutMs: 5000,
  retryBudgetMs: 10_000,
  maxRetries: 2,
  circuitFailures: 5,
  circuitCooldownMs: 30_000,
};

/**
 * One provider's way out: every score goes through its circuit breaker (an open circuit
 * fails fast with `circuit_open`), and its HTTP calls through the retrying client. One
 * score (however many HTTP calls it makes) is one success or one failure to the breaker.
 */
export class ExternalCall {
  readonly http: ProviderHttpClient;
  private readonly breaker: CircuitBreaker;

  constructor(
    readonly provider: string,
    settings: CallSettings,
    secrets: readonly string[],
    classifyError?: ProviderHttpOptions['classifyError'],
  ) {
    this.http = new ProviderHttpClient({ provider, ...settings, secrets, classifyError });
    this.breaker = new CircuitBreaker({ failureThreshold: settings.circuitFailures, cooldownMs: settings.circuitCooldownMs, now: settings.now });
  }

  state(): CircuitState {
    return this.breaker.state();
  }

  async run<T>(work: (http: ProviderHttpClient) => Promise<T>): Promise<T> {
    if (!this.breaker.tryAcquire()) throw new ProviderCallError(this.provider, 'circuit_open', true, undefined, 'circuit open: failing fast');
    try {
      const value = await work(this.http);
      this.breaker.onSuccess();
      return value;
    } catch (err) {
      // A refusal of this input means the provider is up.
      if (err instanceof ProviderCallError && !err.countsAsFailure) this.breaker.onSuccess();
      else this.breaker.onFailure();
      throw err;
    }
  }
}
