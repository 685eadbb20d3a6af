import { DomainError } from '@cds/errors';

export class RateLimitedError extends DomainError {
  constructor(readonly retryAfter: number) {
    super('rate_limited', 'RATE_LIMITED', 'Rate limit exceeded', `retry after ${retryAfter} s`);
  }
}
