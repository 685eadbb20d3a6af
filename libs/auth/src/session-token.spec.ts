import { deriveSessionSecret, isSessionToken, mintSessionToken, SessionTokenError, verifySessionToken } from './session-token';

const SECRET = 'a-signing-secret-of-at-least-32-characters';
const claims = { tenantId: 't1', projectId: 'p1', keyId: 'k1' };

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof SessionTokenError) return e.reason;
    throw e;
  }
  throw new Error('expected a SessionTokenError');
}

describe('session tokens', () => {
  it('round-trips the claims of a fresh token', () => {
    const { token, claims: minted } = mintSessionToken(SECRET, claims, 600, 1_000);
    expect(isSessionToken(token)).toBe(true);
    expect(verifySessionToken(SECRET, token, 1_599)).toEqual({ ...claims, tokenId: minted.tokenId, issuedAt: 1_000, expiresAt: 1_600, policyWrite: false });
  });

  it('carries policyWrite only when minted with it, and it cannot be added after signing', () => {
    const writer = mintSessionToken(SECRET, { ...claims, policyWrite: true }, 600, 1_000).token;
    expect(verifySessionToken(SECRET, writer, 1_001).policyWrite).toBe(true);
    const reader = mintSessionToken(SECRET, claims, 600, 1_000).token;
    const [body, mac] = reader.slice('cds_st_'.length).split('.');
    const edited = { ...JSON.parse(Buffer.from(body, 'base64url').toString()), pw: 1 };
    const forged = `cds_st_${Buffer.from(JSON.stringify(edited)).toString('base64url')}.${mac}`;
    expect(failure(() => verifySessionToken(SECRET, forged, 1_001))).toBe('bad_signature');
  });

  it('refuses an expired token, at the second it expires', () => {
    const { token } = mintSessionToken(SECRET, claims, 600, 1_000);
    expect(failure(() => verifySessionToken(SECRET, token, 1_600))).toBe('expired');
  });

  it('refuses a token signed with another secret', () => {
    const { token } = mintSessionToken('another-secret-another-secret-another', claims, 600);
    expect(failure(() => verifySessionToken(SECRET, token))).toBe('bad_signature');
  });

  it('refuses claims edited after signing (another project, a later expiry)', () => {
    const { token } = mintSessionToken(SECRET, claims, 600, 1_000);
    const [body, mac] = token.slice('cds_st_'.length).split('.');
    const edited = JSON.parse(Buffer.from(body, 'base64url').toString());
    edited.pid = 'p2';
    edited.exp = 99_999_999_999;
    const forged = `cds_st_${Buffer.from(JSON.stringify(edited)).toString('base64url')}.${mac}`;
    expect(failure(() => verifySessionToken(SECRET, forged, 1_001))).toBe('bad_signature');
  });

  it.each([['cds_st_'], ['cds_st_abc'], ['cds_st_a.b.c'], ['cds_st_.sig'], ['cds_abc']])('refuses the malformed token %s', (t) => {
    expect(failure(() => verifySessionToken(SECRET, t))).toBe('malformed');
  });

  it('refuses a correctly signed body that is not the claims it should be', () => {
    const body = Buffer.from(JSON.stringify({ v: 1, jti: 'x' })).toString('base64url');
    const { createHmac } = jest.requireActual('node:crypto');
    const mac = createHmac('sha256', SECRET).update(`cds_st_${body}`).digest('base64url');
    expect(failure(() => verifySessionToken(SECRET, `cds_st_${body}.${mac}`))).toBe('malformed');
  });

  it('derives a stable secret from the admin key that differs from it', () => {
    expect(deriveSessionSecret('admin-key-0123456789')).toBe(deriveSessionSecret('admin-key-0123456789'));
    expect(deriveSessionSecret('admin-key-0123456789')).not.toBe(deriveSessionSecret('admin-key-0123456780'));
    expect(deriveSessionSecret('admin-key-0123456789')).not.toContain('admin-key');
  });
});
