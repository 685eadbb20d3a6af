import { CircuitState } from '../port/provider.port';

export interface CircuitBreakerOptions {
  /** Consecutive failed calls that open the circuit. */
  failureThreshold: number;
  /** How long it stays open before one probe may go through. */
  cooldownMs: number;
  now?: () => number;
}

/**
 * One provider's circuit: closed → open after `failureThreshold` consecutive failures →
 * half-open once `cooldownMs` has passed, letting one probe through (others still fail
 * fast) → closed when the probe succeeds, open again (a new cool-down) when it fails.
 */
export class CircuitBreaker {
  private mode: CircuitState = 'closed';
  private failures = 0;
  private openedAt = 0;
  private probing = false;
  private readonly now: () => number;

  constructor(private readonly options: CircuitBreakerOptions) {
    this.now = options.now ?? Date.now;
  }

  state(): CircuitState {
    if (this.mode === 'open' && this.now() - this.openedAt >= this.options.cooldownMs) this.mode = 'half_open';
    return this.mode;
  }

  /** Whether a call may start now; in half-open the one that gets true is the probe. */
  tryAcquire(): boolean {
    switch (this.state()) {
      case 'closed':
        return true;
      case 'open':
        return false;
      case 'half_open':
        if (this.probing) return false;
        this.probing = true;
        return true;
    }
  }

  onSuccess(): void {
    this.mode = 'closed';
    this.failures = 0;
    this.probing = false;
  }

  onFailure(): void {
    this.probing = false;
    if (this.mode === 'half_open') return this.open();
    this.failures += 1;
    if (this.failures >= this.options.failureThreshold) this.open();
  }

  private open(): void {
    this.mode = 'open';
    this.openedAt = this.now();
    this.failures = 0;
  }
}
