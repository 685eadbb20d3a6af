import { invalid } from '@cds/errors';
import { checkEgressUrl, EgressPolicy, EgressRefusedError } from '@cds/webhooks';

const MALFORMED = new Set(['invalid_url', 'unsupported_scheme', 'credentials_in_url']);

/** A webhook (or batch) URL must be http(s) and pass the egress guard now: 422
 * `INVALID_WEBHOOK_URL` when it is not a usable URL, `EGRESS_REFUSED` when it points
 * somewhere the service may not send to (loopback, private, metadata...). */
export async function assertDeliverableUrl(url: string, egress: EgressPolicy, field = 'url'): Promise<void> {
  try {
    await checkEgressUrl(url, egress);
  } catch (err) {
    if (err instanceof EgressRefusedError && MALFORMED.has(err.reason)) {
      throw invalid('INVALID_WEBHOOK_URL', 'Invalid webhook URL', `${field}: ${err.message}`);
    }
    if (err instanceof EgressRefusedError) throw invalid('EGRESS_REFUSED', 'Webhook URL refused', `${field}: ${err.message}`);
    throw err;
  }
}
