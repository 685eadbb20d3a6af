import { randomUUID } from 'node:crypto';

/** The header a request id comes in on (a client's, or a proxy's) and goes back out on. */
export const REQUEST_ID_HEADER = 'x-request-id';

const USABLE = /^[A-Za-z0-9._:@/-]{1,128}$/;

/** The client's id when it is a plain token of at most 128 characters, else a new one:
 * an id is echoed in headers and logs, so nothing else gets through.
 *
 * The id is handed on explicitly (the request, its principal, the events it writes, the
 * job those start), not through AsyncLocalStorage: on Node 20 its promise hooks cost every
 * request about a tenth of the check throughput (BENCHMARKS.md, eighth session). */
export function acceptRequestId(header: unknown): string {
  return typeof header === 'string' && USABLE.test(header) ? header : randomUUID();
}
