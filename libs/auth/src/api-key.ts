import * as crypto from 'node:crypto';

export const SCOPES = ['checks', 'policies', 'decisions', 'guardrails', 'webhooks', 'keys'] as const;
export type Scope = (typeof SCOPES)[number];

export const DEFAULT_TENANT = 'default';
export const ADMIN_KEY_ID = 'admin';

/** Who is calling: resolved from the Authorization header once per request. */
export interface Principal {
  keyId: string;
  tenantId: string;
  scopes: readonly Scope[];
  /** The bootstrap key (ADMIN_API_KEY): may act for any tenant when creating keys. */
  bootstrap: boolean;
  /** Set when the caller sent a guardrail session token rather than a key: the token
   * is bound to `session.projectId`, and `keyId` is the key that minted it. */
  session?: { tokenId: string; projectId: string; expiresAt: number; policyWrite: boolean };
  /** The request being made (its `x-request-id`), or for work a request started (an async
   * batch), that request's: the events written for it carry the id. */
  requestId?: string;
}

/** Who did it, as recorded on events (`updatedBy`, `decidedBy`). */
export function principalIdentity(p: Principal): string {
  return p.session ? `session:${p.session.tokenId}` : `key:${p.keyId}`;
}

const KEY_PREFIX = 'cds_';

/** A new random key: 32 bytes of entropy, so a fast hash is enough to store it. */
export function generateApiKey(): { key: string; hash: string; prefix: string } {
  const key = KEY_PREFIX + crypto.randomBytes(32).toString('base64url');
  return { key, hash: hashApiKey(key), prefix: key.slice(0, KEY_PREFIX.length + 6) };
}

/** Node's one-shot digest (20.12+), a third of the cost of a Hash object: every
 * authenticated request hashes its key. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function hashApiKey(key: string): string {
  return oneShot ? oneShot('sha256', key, 'hex') : crypto.createHash('sha256').update(key, 'utf8').digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** `Authorization: Bearer <token>` -> token, or null when absent or malformed. */
export function bearerToken(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  const m = /^Bearer[ \t]+([\x21-\x7e]{1,512})[ \t]*$/i.exec(header);
  return m ? m[1] : null;
}

export function isScope(s: unknown): s is Scope {
  return typeof s === 'string' && (SCOPES as readonly string[]).includes(s);
}
