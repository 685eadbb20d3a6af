/**
 * Webhook signatures in Stripe's scheme, so Stripe's own verifiers accept them:
 * `x-service-signature: t=<unix seconds>,v1=<hex HMAC-SHA256("<t>.<raw body>")>`, keyed
 * by the secret string as-is. During a rotation the header carries one `v1` per secret.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@cds/errors';

export const SIGNATURE_HEADER = 'x-service-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type SignatureFailure = 'missing_header' | 'malformed_header' | 'no_signature' | 'timestamp_outside_tolerance' | 'signature_mismatch';

export class WebhookSignatureError extends DomainError {
  constructor(
    readonly reason: SignatureFailure,
    message: string,
  ) {
    super('unauthorized', 'INVALID_WEBHOOK_SIGNATURE', message, reason);
    this.name = 'WebhookSignatureError';
  }
}

export interface VerifyOptions {
  /** The header value; Node gives `string[]` when it was sent more than once. */
  header: string | string[] | undefined | null;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: string | Buffer;
  /** Several secrets during a rotation: any one matching is enough. */
  secret: string | readonly string[];
  toleranceSeconds?: number;
  nowSeconds?: number;
}

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function computeSignature(secret: string, timestampSec: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestampSec}.`).update(rawBody).digest('hex');
}

export function signPayload(secret: string | readonly string[], rawBody: string | Buffer, timestampSec: number): string {
  if (!Number.isSafeInteger(timestampSec) || timestampSec < 0) throw new TypeError('timestampSec must be whole unix seconds');
  const signatures = secretsOf(secret).map((s) => `v1=${computeSignature(s, timestampSec, rawBody)}`);
  return [`t=${timestampSec}`, ...signatures].join(',');
}

export function verifySignature(options: VerifyOptions): { timestamp: number } {
  const { rawBody, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS } = options;
  const secrets = secretsOf(options.secret);
  const header = Array.isArray(options.header) ? options.header.join(',') : options.header;
  if (!header) throw new WebhookSignatureError('missing_header', `Missing ${SIGNATURE_HEADER} header`);

  const { timestamp, signatures } = parseHeader(header);
  if (signatures.length === 0) throw new WebhookSignatureError('no_signature', `No v1 signature in ${SIGNATURE_HEADER}`);

  const expected = secrets.map((s) => Buffer.from(computeSignature(s, timestamp, rawBody), 'utf8'));
  // Every pair is compared, so the time taken says nothing about which one matched.
  let matched = false;
  for (const candidate of signatures) {
    const given = Buffer.from(candidate, 'utf8');
    for (const want of expected) matched = (given.length === want.length && timingSafeEqual(given, want)) || matched;
  }
  if (!matched) throw new WebhookSignatureError('signature_mismatch', 'No signature matches the payload and secret');

  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > toleranceSeconds) {
    throw new WebhookSignatureError('timestamp_outside_tolerance', `Signature timestamp ${timestamp} is more than ${toleranceSeconds}s away from now (${now})`);
  }
  return { timestamp };
}

function parseHeader(header: string): { timestamp: number; signatures: string[] } {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const separator = item.indexOf('=');
    if (separator < 1) throw malformed(`"${item.trim()}" is not key=value`);
    const key = item.slice(0, separator).trim();
    const value = item.slice(separator + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined) throw malformed('more than one t=');
      if (!/^\d{1,12}$/.test(value)) throw malformed('t= is not unix seconds');
      timestamp = Number(value);
    } else if (key === 'v1') {
      signatures.push(value);
    } // other schemes (v0=...) are ignored, as Stripe does
  }
  if (timestamp === undefined) throw malformed('no t= timestamp');
  return { timestamp, signatures };
}

function malformed(detail: string): WebhookSignatureError {
  return new WebhookSignatureError('malformed_header', `Malformed ${SIGNATURE_HEADER} header: ${detail}`);
}

function secretsOf(secret: string | readonly string[]): readonly string[] {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0 || secrets.some((s) => s.length === 0)) throw new TypeError('at least one non-empty secret is required');
  return secrets;
}
