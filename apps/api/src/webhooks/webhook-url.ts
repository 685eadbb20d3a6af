import { invalid } from '@cds/errors';
import { checkEgressUrl, EgressPolicy, EgressRefusedError, Resolver } from '@cds/egress';

const MALFORMED = new Set(['invalid_url', 'unsupported_scheme', 'credentials_in_url']);

/** How long registration waits for the host name of a URL to resolve. */
export const URL_RESOLVE_TIMEOUT_MS = 3_000;

/** A webhook (or batch) URL must be http(s) and pass the egress guard now: 422
 * `INVALID_WEBHOOK_URL` when it is not a usable URL, `EGRESS_REFUSED` when it points
 * somewhere the service may not send to (loopback, private, metadata...) or its host
 * does not resolve, `WEBHOOK_URL_DNS_TIMEOUT` when its host gives no answer in time (the
 * request is not held up by a resolver that never answers). */
export async function assertDeliverableUrl(
  url: string,
  egress: EgressPolicy,
  field = 'url',
  o: { resolve?: Resolver; timeoutMs?: number } = {},
): Promise<void> {
  try {
    await checkEgressUrl(url, { ...egress, resolve: o.resolve, resolveTimeoutMs: o.timeoutMs ?? URL_RESOLVE_TIMEOUT_MS });
  } catch (err) {
    if (err instanceof EgressRefusedError && MALFORMED.has(err.reason)) {
      throw invalid('INVALID_WEBHOOK_URL', 'Invalid webhook URL', `${field}: ${err.message}`);
    }
    if (err instanceof EgressRefusedError && err.reason === 'dns_timeout') {
      throw invalid('WEBHOOK_URL_DNS_TIMEOUT', 'Webhook URL host did not resolve in time', `${field}: ${err.message}; check the host name and retry`);
    }
    if (err instanceof EgressRefusedError) throw invalid('EGRESS_REFUSED', 'Webhook URL refused', `${field}: ${err.message}`);
    throw err;
  }
}
