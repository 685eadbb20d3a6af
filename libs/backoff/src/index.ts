export { backoffDelay } from './backoff';
export type { BackoffOptions } from './backoff';
export {
  DEFAULT_RETRY_SCHEDULE,
  DEFAULT_RETRY_SCHEDULE_SPEC,
  MAX_RETRY_ATTEMPTS,
  MAX_RETRY_DELAY_MS,
  parseRetrySchedule,
  nextAttemptAt,
} from './retry-schedule';
export type { RetrySchedule } from './retry-schedule';
export { retry } from './retry';
export type { RetryHooks, RetryPolicy } from './retry';
