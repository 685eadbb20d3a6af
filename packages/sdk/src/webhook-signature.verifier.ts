import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header a delivery's signature is in. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-service-signature';

export interface WebhookSignatureInput {
  /** The `x-service-signature` header as received: `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`. */
  header: string | string[] | null | undefined;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: string | Buffer | Uint8Array;
  /** The webhook's `whsec_…` secret; several while rotating. */
  secret: string | readonly string[];
  /** Largest distance between the signature's timestamp and now, default 300 s. */
  toleranceSeconds?: number;
  /** Now, as a Date or milliseconds since the epoch (Date.now()); default the system clock. */
  now?: Date | number;
}

export type WebhookSignatureFailure = 'missing_header' | 'malformed_header' | 'no_signature' | 'timestamp_out_of_tolerance' | 'signature_mismatch';

export type WebhookSignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: WebhookSignatureFailure };

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/**
 * Why a delivery's signature is or is not valid. The signed string is `<t>.<raw body>`,
 * HMAC-SHA256 keyed by the secret string, hex; any `v1` value may match any secret (keys
 * and signatures are rotated independently). Every comparison is constant-time.
 */
export function checkWebhookSignature(input: WebhookSignatureInput): WebhookSignatureCheck {
  const header = Array.isArray(input.header) ? input.header[0] : input.header;
  if (typeof header !== 'string' || header.trim() === '') return { ok: false, reason: 'missing_header' };

  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const item of header.split(',')) {
    if (item.trim() === '') continue;
    const eq = item.indexOf('=');
    if (eq <= 0) return { ok: false, reason: 'malformed_header' };
    const key = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,15}$/.test(value)) return { ok: false, reason: 'malformed_header' };
      timestamp = Number(value);
    } else if (key === 'v1' && HEX_SHA256.test(value)) {
      signatures.push(Buffer.from(value, 'hex'));
    }
    // Other schemes (v0, a future v2) and malformed v1 values are not ours to judge.
  }
  if (timestamp === undefined) return { ok: false, reason: 'malformed_header' };
  if (signatures.length === 0) return { ok: false, reason: 'no_signature' };

  const nowMs = input.now === undefined ? Date.now() : typeof input.now === 'number' ? input.now : input.now.getTime();
  const tolerance = input.toleranceSeconds ?? 300;
  if (Math.abs(nowMs / 1000 - timestamp) > tolerance) return { ok: false, reason: 'timestamp_out_of_tolerance' };

  const body = typeof input.rawBody === 'string' ? Buffer.from(input.rawBody, 'utf8') : Buffer.from(input.rawBody);
  const secrets = typeof input.secret === 'string' ? [input.secret] : input.secret;
  let matched = false;
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret === '') continue;
    const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
    // No early exit: the time taken does not depend on which value matched.
    for (const candidate of signatures) matched = timingSafeEqual(expected, candidate) || matched;
  }
  return matched ? { ok: true, timestamp } : { ok: false, reason: 'signature_mismatch' };
}

/**
 * True when a webhook delivery is authentic and recent; answer 401 otherwise.
 * (A boolean on purpose: `if (verifyWebhookSignature(...))` cannot be fooled by a truthy
 * failure object. `checkWebhookSignature` says why.)
 */
export function verifyWebhookSignature(input: WebhookSignatureInput): boolean {
  return checkWebhookSignature(input).ok;
}
