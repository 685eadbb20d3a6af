import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Evidence URLs: capability URLs (like S3 presigned ones) for the evidence frames of a video
 * decision, opened in a browser without an API key. The URL carries the tenant (the api has
 * no key to learn it from), the frame and an expiry, signed with HMAC-SHA256 over a JSON
 * array of the four fields: JSON quotes and escapes each string, so no field can bleed into
 * another. Any api replica holding the same key verifies them without a lookup.
 */
export interface EvidenceClaim {
  tenantId: string;
  decisionId: string;
  /** Frame number: a non-negative integer. */
  frame: number;
  /** Unix seconds. */
  expiresAt: number;
}

export type EvidenceUrlFailure = 'malformed' | 'expired' | 'bad_signature';

/** What a request hands over, untrusted: query values and path parameters as they came. */
export interface EvidenceQuery {
  tenant: unknown;
  decisionId: unknown;
  frame: unknown;
  expires: unknown;
  sig: unknown;
}

const LABEL = 'cds evidence url v1';
/** Tenant ids (TENANT_ID_PATTERN) and decision ids (UUIDs) both fit; '/', '%', '..' at the start and unicode never do. */
const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const FRAME = /^(0|[1-9][0-9]{0,8})$/;
const MAX_FRAME = 999_999_999;
const EXPIRES = /^[1-9][0-9]{0,10}$/;
const MAX_EXPIRES = 99_999_999_999;
/** base64url of 32 bytes, unpadded. */
const SIG = /^[A-Za-z0-9_-]{43}$/;

/** 32 bytes from the key material, labelled so the material itself is never the key. */
export function deriveEvidenceKey(secret: string): Buffer {
  if (secret.length === 0) throw new TypeError('key material must not be empty');
  return createHmac('sha256', secret).update('cds evidence urls v1', 'utf8').digest();
}

/** base64url HMAC-SHA256 of the claim; throws TypeError on a claim that could never verify. */
export function signEvidence(claim: EvidenceClaim, key: Buffer): string {
  const problem = claimProblem(claim);
  if (problem) throw new TypeError(`cannot sign evidence: ${problem}`);
  return mac(claim, key);
}

/** `/v1/video/evidence/<decisionId>/<frame>?tenant=…&expires=…&sig=…`, ids URL-encoded. */
export function evidencePath(claim: EvidenceClaim, key: Buffer): string {
  const sig = signEvidence(claim, key);
  const query = `tenant=${encodeURIComponent(claim.tenantId)}&expires=${claim.expiresAt}&sig=${sig}`;
  return `/v1/video/evidence/${encodeURIComponent(claim.decisionId)}/${claim.frame}?${query}`;
}

/** The claim of a genuine, unexpired URL. Never throws: hostile input is `malformed`. */
export function verifyEvidence(
  q: EvidenceQuery,
  key: Buffer,
  nowSeconds: number,
): { ok: true; claim: EvidenceClaim } | { ok: false; reason: EvidenceUrlFailure } {
  try {
    const tenantId = id(q?.tenant);
    const decisionId = id(q?.decisionId);
    const frame = integer(q?.frame, FRAME, 0, MAX_FRAME);
    const expiresAt = integer(q?.expires, EXPIRES, 1, MAX_EXPIRES);
    const sig = q?.sig;
    if (tenantId === null || decisionId === null || frame === null || expiresAt === null || typeof sig !== 'string' || !SIG.test(sig)) {
      return { ok: false, reason: 'malformed' };
    }
    const claim: EvidenceClaim = { tenantId, decisionId, frame, expiresAt };
    // Compares the text: a second spelling of the same bytes is not a second valid URL.
    const expected = Buffer.from(mac(claim, key), 'ascii');
    if (!timingSafeEqual(Buffer.from(sig, 'ascii'), expected)) return { ok: false, reason: 'bad_signature' };
    if (!(expiresAt > nowSeconds)) return { ok: false, reason: 'expired' };
    return { ok: true, claim };
  } catch {
    // A getter that throws, a Proxy: whatever it is, it is not a URL we made.
    return { ok: false, reason: 'malformed' };
  }
}

function mac(c: EvidenceClaim, key: Buffer): string {
  const canonical = JSON.stringify([LABEL, c.tenantId, c.decisionId, c.frame, c.expiresAt]);
  return createHmac('sha256', key).update(canonical, 'utf8').digest('base64url');
}

function claimProblem(c: EvidenceClaim): string | null {
  if (typeof c?.tenantId !== 'string' || !ID.test(c.tenantId)) return 'tenantId must be 1-128 letters, digits, dot, dash or underscore';
  if (typeof c.decisionId !== 'string' || !ID.test(c.decisionId)) return 'decisionId must be 1-128 letters, digits, dot, dash or underscore';
  if (!Number.isSafeInteger(c.frame) || c.frame < 0 || c.frame > MAX_FRAME) return `frame must be an integer in 0..${MAX_FRAME}`;
  if (!Number.isSafeInteger(c.expiresAt) || c.expiresAt < 1 || c.expiresAt > MAX_EXPIRES) return 'expiresAt must be integer unix seconds';
  return null;
}

function id(v: unknown): string | null {
  return typeof v === 'string' && ID.test(v) ? v : null;
}

/** Decimal digits without sign, exponent, fraction or leading zero (or a safe integer). */
function integer(v: unknown, pattern: RegExp, min: number, max: number): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= min && v <= max ? v : null;
  if (typeof v !== 'string' || !pattern.test(v)) return null;
  const n = Number(v);
  return n >= min && n <= max ? n : null;
}
