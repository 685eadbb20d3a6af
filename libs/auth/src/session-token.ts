import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Guardrail session tokens: short-lived, bound to one tenant, one project and the key
 * that minted them. Stateless: `cds_st_<claims>.<HMAC-SHA256(claims)>`, both base64url,
 * so any api replica that shares the signing key verifies them without a lookup.
 * Whether the minting key is still live is checked by the caller on every use.
 */
export interface SessionClaims {
  /** Token id (jti): what `updatedBy`/`decidedBy` and rate limits name. */
  tokenId: string;
  tenantId: string;
  projectId: string;
  /** The API key that minted it; revoking that key revokes the token. */
  keyId: string;
  issuedAt: number;
  /** Unix seconds. */
  expiresAt: number;
  /** May change the project's guardrail policy (PUT, rollback, an inline policy on a
   * decision). Off unless the minting key asked for it: an agent holding the token
   * should not be able to loosen its own guardrails. */
  policyWrite: boolean;
}

export const SESSION_TOKEN_PREFIX = 'cds_st_';
const VERSION = 1;

export type SessionTokenFailure = 'malformed' | 'bad_signature' | 'expired';

export class SessionTokenError extends Error {
  constructor(
    readonly reason: SessionTokenFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SessionTokenError';
  }
}

export function isSessionToken(token: string): boolean {
  return token.startsWith(SESSION_TOKEN_PREFIX);
}

export function mintSessionToken(
  secret: string,
  claims: Omit<SessionClaims, 'tokenId' | 'issuedAt' | 'expiresAt' | 'policyWrite'> & { policyWrite?: boolean },
  ttlSeconds: number,
  nowSeconds = Math.floor(Date.now() / 1000),
): { token: string; claims: SessionClaims } {
  const full: SessionClaims = {
    ...claims,
    policyWrite: claims.policyWrite === true,
    tokenId: randomUUID(),
    issuedAt: nowSeconds,
    expiresAt: nowSeconds + ttlSeconds,
  };
  const body = Buffer.from(
    JSON.stringify({
      v: VERSION,
      jti: full.tokenId,
      tid: full.tenantId,
      pid: full.projectId,
      kid: full.keyId,
      iat: full.issuedAt,
      exp: full.expiresAt,
      ...(full.policyWrite ? { pw: 1 } : {}),
    }),
    'utf8',
  ).toString('base64url');
  return { token: `${SESSION_TOKEN_PREFIX}${body}.${sign(secret, body)}`, claims: full };
}

/** The claims of a genuine, unexpired token; throws SessionTokenError otherwise. */
export function verifySessionToken(secret: string, token: string, nowSeconds = Math.floor(Date.now() / 1000)): SessionClaims {
  if (!isSessionToken(token)) throw new SessionTokenError('malformed', 'not a session token');
  const [body, mac, ...rest] = token.slice(SESSION_TOKEN_PREFIX.length).split('.');
  if (!body || !mac || rest.length > 0) throw new SessionTokenError('malformed', 'the token is not <claims>.<signature>');
  const expected = Buffer.from(sign(secret, body), 'base64url');
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new SessionTokenError('bad_signature', 'the token signature does not match');
  }
  const c = parseClaims(body);
  if (c.expiresAt <= nowSeconds) {
    throw new SessionTokenError('expired', `the token expired at ${new Date(c.expiresAt * 1000).toISOString()}`);
  }
  return c;
}

function parseClaims(body: string): SessionClaims {
  let raw: any;
  try {
    raw = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw new SessionTokenError('malformed', 'the token claims are not JSON');
  }
  const ok =
    raw &&
    raw.v === VERSION &&
    typeof raw.jti === 'string' &&
    typeof raw.tid === 'string' &&
    typeof raw.pid === 'string' &&
    typeof raw.kid === 'string' &&
    Number.isInteger(raw.iat) &&
    Number.isInteger(raw.exp);
  if (!ok) throw new SessionTokenError('malformed', 'the token claims are incomplete');
  return { tokenId: raw.jti, tenantId: raw.tid, projectId: raw.pid, keyId: raw.kid, issuedAt: raw.iat, expiresAt: raw.exp, policyWrite: raw.pw === 1 };
}

function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update(`${SESSION_TOKEN_PREFIX}${body}`, 'utf8').digest('base64url');
}

/** The signing key when SESSION_TOKEN_SECRET is unset: derived from the admin key,
 * with a label so it is never the admin key itself. */
export function deriveSessionSecret(adminKey: string): string {
  return createHmac('sha256', adminKey).update('cds guardrail session tokens v1', 'utf8').digest('base64url');
}
