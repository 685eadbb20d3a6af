import { createHmac } from 'node:crypto';
import { deriveEvidenceKey, EvidenceClaim, evidencePath, EvidenceQuery, signEvidence, verifyEvidence } from './evidence-url';

describe('evidence URLs', () => {
  const key = deriveEvidenceKey('an evidence secret of at least thirty-two characters');
  const now = 1_800_000_000;
  const claim: EvidenceClaim = { tenantId: 'acme.prod', decisionId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', frame: 12, expiresAt: now + 3600 };

  /** What the api receives when a browser opens the path: path params and query values. */
  function queryOf(path: string): EvidenceQuery {
    const url = new URL(path, 'http://x');
    const [, , , , decisionId, frame] = url.pathname.split('/');
    return {
      tenant: url.searchParams.get('tenant'),
      decisionId: decodeURIComponent(decisionId),
      frame,
      expires: url.searchParams.get('expires'),
      sig: url.searchParams.get('sig'),
    };
  }
  const valid = (): EvidenceQuery => queryOf(evidencePath(claim, key));

  it('round-trips: the path verifies to the claim it was made from', () => {
    const path = evidencePath(claim, key);
    expect(path).toBe(`/v1/video/evidence/${claim.decisionId}/12?tenant=acme.prod&expires=${now + 3600}&sig=${signEvidence(claim, key)}`);
    expect(signEvidence(claim, key)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verifyEvidence(queryOf(path), key, now)).toEqual({ ok: true, claim });
    expect(verifyEvidence({ ...valid(), frame: 12, expires: now + 3600 }, key, now)).toEqual({ ok: true, claim });
    expect(verifyEvidence(queryOf(evidencePath({ ...claim, frame: 0 }, key)), key, now)).toEqual({ ok: true, claim: { ...claim, frame: 0 } });
  });

  it('signs a canonical JSON array of the four fields: no field bleeds into another', () => {
    const expected = createHmac('sha256', key)
      .update(JSON.stringify(['cds evidence url v1', claim.tenantId, claim.decisionId, claim.frame, claim.expiresAt]))
      .digest('base64url');
    expect(signEvidence(claim, key)).toBe(expected);
    const a = signEvidence({ ...claim, tenantId: 'ab', decisionId: 'c' }, key);
    const b = signEvidence({ ...claim, tenantId: 'a', decisionId: 'bc' }, key);
    expect(a).not.toBe(b);
    expect(signEvidence({ ...claim, frame: 1, expiresAt: 23 }, key)).not.toBe(signEvidence({ ...claim, frame: 12, expiresAt: 3 }, key));
  });

  it('fails on a change to any field or to the signature', () => {
    const q = valid();
    const other = evidencePath({ ...claim, decisionId: 'a-different-decision' }, key);
    for (const tampered of [
      { ...q, tenant: 'acme.prod2' },
      { ...q, tenant: 'default' },
      { ...q, decisionId: 'a-different-decision' },
      { ...q, frame: '13' },
      { ...q, expires: String(now + 7200) },
      { ...q, sig: queryOf(other).sig },
    ]) {
      expect(verifyEvidence(tampered, key, now)).toEqual({ ok: false, reason: 'bad_signature' });
    }
    const sig = String(q.sig);
    for (let i = 0; i < sig.length; i += 7) {
      const flipped = sig.slice(0, i) + (sig[i] === 'A' ? 'B' : 'A') + sig.slice(i + 1);
      expect(verifyEvidence({ ...q, sig: flipped }, key, now)).toEqual({ ok: false, reason: 'bad_signature' });
    }
    expect(verifyEvidence(q, deriveEvidenceKey('another secret'), now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a second spelling of the same signature bytes (the unused low bits of the last character)', () => {
    const q = valid();
    const sig = String(q.sig);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(sig[42]);
    const twin = sig.slice(0, 42) + alphabet[last | 1];
    expect(Buffer.from(twin, 'base64url').equals(Buffer.from(sig, 'base64url'))).toBe(true);
    expect(verifyEvidence({ ...q, sig: twin }, key, now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('fails once expired (at expiresAt and after), a genuine URL being told apart from a forged one', () => {
    const q = valid();
    expect(verifyEvidence(q, key, now + 3599).ok).toBe(true);
    expect(verifyEvidence(q, key, now + 3600)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyEvidence(q, key, now + 86_400)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyEvidence({ ...q, sig: 'A'.repeat(43) }, key, now + 86_400)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('answers malformed to hostile values, and never throws', () => {
    const q = valid();
    const hostile: Array<[keyof EvidenceQuery, unknown]> = [
      ['tenant', ['acme.prod', 'other']],
      ['tenant', '../acme'],
      ['tenant', 'acme/../x'],
      ['tenant', '..'],
      ['tenant', 'ácme'],
      ['tenant', 'acme\u0000'],
      ['tenant', ''],
      ['tenant', 'a'.repeat(129)],
      ['tenant', undefined],
      ['tenant', { toString: () => 'acme.prod' }],
      ['decisionId', '../../etc/passwd'],
      ['decisionId', '%2e%2e'],
      ['decisionId', '😀'],
      ['decisionId', 42],
      ['frame', '-1'],
      ['frame', -1],
      ['frame', '1.5'],
      ['frame', 1.5],
      ['frame', '1e3'],
      ['frame', '012'],
      ['frame', '0x10'],
      ['frame', ' 12'],
      ['frame', '12 '],
      ['frame', '+12'],
      ['frame', '99999999999999999999999'],
      ['frame', 2 ** 53],
      ['frame', Number.NaN],
      ['frame', Infinity],
      ['frame', ['12']],
      ['frame', '１２'],
      ['expires', '1e10'],
      ['expires', String(now + 3600) + '.0'],
      ['expires', '-' + String(now)],
      ['expires', '999999999999999999999'],
      ['expires', 1.5],
      ['expires', null],
      ['expires', '0'],
      ['sig', undefined],
      ['sig', ''],
      ['sig', String(q.sig) + '='],
      ['sig', String(q.sig).slice(1)],
      ['sig', String(q.sig).replace(/.$/, '+')],
      ['sig', [q.sig]],
      ['sig', Buffer.from(String(q.sig))],
    ];
    for (const [field, value] of hostile) {
      const attempt = () => verifyEvidence({ ...q, [field]: value }, key, now);
      expect(attempt).not.toThrow();
      expect([field, value, attempt()]).toEqual([field, value, { ok: false, reason: 'malformed' }]);
    }
    const throwing = Object.defineProperty({ ...q }, 'tenant', {
      get: () => {
        throw new Error('boom');
      },
    });
    expect(verifyEvidence(throwing, key, now)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyEvidence(null as any, key, now)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyEvidence({} as any, key, now)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses to sign a claim that could never verify', () => {
    expect(() => signEvidence({ ...claim, tenantId: '../x' }, key)).toThrow(TypeError);
    expect(() => signEvidence({ ...claim, decisionId: '' }, key)).toThrow(TypeError);
    expect(() => signEvidence({ ...claim, frame: -1 }, key)).toThrow(TypeError);
    expect(() => signEvidence({ ...claim, frame: 1.5 }, key)).toThrow(TypeError);
    expect(() => signEvidence({ ...claim, expiresAt: now + 0.5 }, key)).toThrow(TypeError);
  });

  it('derives a 32-byte key that depends on the material and is not the material', () => {
    expect(deriveEvidenceKey('x')).toHaveLength(32);
    expect(deriveEvidenceKey('x').equals(deriveEvidenceKey('y'))).toBe(false);
    expect(deriveEvidenceKey('x').equals(deriveEvidenceKey('x'))).toBe(true);
    expect(deriveEvidenceKey('x').equals(createHmac('sha256', 'x').update('cds webhook secrets v1').digest())).toBe(false);
    expect(() => deriveEvidenceKey('')).toThrow(TypeError);
  });
});
