export { backoffDelay } from './backoff';
export type { BackoffOptions } from './backoff';
