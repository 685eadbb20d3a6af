import { DomainError } from '@cds/errors';

export class RateLimitedError extends DomainError {
  declare readonly retryAfter: number;

  constructor(retryAfter: number) {
    super('rate_limited', 'RATE_LIMITED', 'Rate limit exceeded', `retry after ${retryAfter} s`, retryAfter);
  }
}
