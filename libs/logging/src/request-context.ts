import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header a request id comes in on (a client's, or a proxy's) and goes back out on. */
export const REQUEST_ID_HEADER = 'x-request-id';

const context = new AsyncLocalStorage<{ requestId: string }>();
const USABLE = /^[A-Za-z0-9._:@/-]{1,128}$/;

/** The request id of the work in progress (an HTTP request, or a job started by one). */
export function currentRequestId(): string | undefined {
  return context.getStore()?.requestId;
}

/** Runs `fn` (and everything it starts) under `requestId`; without one, as it is. */
export function withRequestId<T>(requestId: string | undefined | null, fn: () => T): T {
  return requestId ? context.run({ requestId }, fn) : fn();
}

/** The client's id when it is a plain token of at most 128 characters, else a new one:
 * an id is echoed in headers and logs, so nothing else gets through. */
export function acceptRequestId(header: unknown): string {
  return typeof header === 'string' && USABLE.test(header) ? header : randomUUID();
}
