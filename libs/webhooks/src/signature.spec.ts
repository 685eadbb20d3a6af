import { createHmac } from 'node:crypto';
import { DomainError } from '@cds/errors';
import { generateWebhookSecret, signPayload, SignatureFailure, verifySignature, VerifyOptions, WebhookSignatureError } from './signature';

const SECRET = 'whsec_test_secret';
const BODY = '{"id":"evt_1","type":"decision.created","data":{"id":"dec_1"}}';
const NOW = 1_750_000_000;

function failureOf(options: Partial<VerifyOptions>): SignatureFailure {
  try {
    verifySignature({ header: signPayload(SECRET, BODY, NOW), rawBody: BODY, secret: SECRET, nowSeconds: NOW, ...options });
  } catch (err) {
    if (err instanceof WebhookSignatureError) return err.reason;
    throw err;
  }
  throw new Error('verification unexpectedly succeeded');
}

describe('signPayload', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"> keyed by the secret string', () => {
    const expected = createHmac('sha256', SECRET).update(`${NOW}.${BODY}`).digest('hex');
    expect(signPayload(SECRET, BODY, NOW)).toBe(`t=${NOW},v1=${expected}`);
  });

  it('signs a Buffer exactly like the same bytes as a string', () => {
    expect(signPayload(SECRET, Buffer.from(BODY), NOW)).toBe(signPayload(SECRET, BODY, NOW));
  });

  it('carries one v1 per secret during a rotation', () => {
    const header = signPayload([SECRET, 'whsec_new'], BODY, NOW);
    const [t, first, second] = header.split(',');
    expect(t).toBe(`t=${NOW}`);
    expect(first).toBe(signPayload(SECRET, BODY, NOW).split(',')[1]);
    expect(second).toBe(signPayload('whsec_new', BODY, NOW).split(',')[1]);
  });

  it('rejects an empty secret and a non-integer timestamp', () => {
    expect(() => signPayload('', BODY, NOW)).toThrow(TypeError);
    expect(() => signPayload([], BODY, NOW)).toThrow(TypeError);
    expect(() => signPayload(SECRET, BODY, 1.5)).toThrow(TypeError);
  });
});

describe('verifySignature', () => {
  const valid = (extra: Partial<VerifyOptions> = {}) =>
    verifySignature({ header: signPayload(SECRET, BODY, NOW), rawBody: BODY, secret: SECRET, nowSeconds: NOW, ...extra });

  it('accepts its own signature and returns the timestamp', () => {
    expect(valid()).toEqual({ timestamp: NOW });
  });

  it('accepts a raw body given as a Buffer', () => {
    expect(valid({ rawBody: Buffer.from(BODY) })).toEqual({ timestamp: NOW });
  });

  it('rejects a tampered body, even by whitespace', () => {
    expect(failureOf({ rawBody: BODY.replace('dec_1', 'dec_2') })).toBe('signature_mismatch');
    expect(failureOf({ rawBody: `${BODY} ` })).toBe('signature_mismatch');
  });

  it('rejects a wrong secret', () => {
    expect(failureOf({ secret: 'whsec_other' })).toBe('signature_mismatch');
  });

  it('rejects a timestamp changed after signing', () => {
    const header = signPayload(SECRET, BODY, NOW).replace(`t=${NOW}`, `t=${NOW + 1}`);
    expect(failureOf({ header })).toBe('signature_mismatch');
  });

  it('rejects a stale timestamp beyond 5 minutes, accepts one at the edge', () => {
    expect(valid({ nowSeconds: NOW + 300 })).toEqual({ timestamp: NOW });
    expect(failureOf({ nowSeconds: NOW + 301 })).toBe('timestamp_outside_tolerance');
  });

  it('rejects a timestamp from the future beyond the tolerance', () => {
    expect(valid({ nowSeconds: NOW - 300 })).toEqual({ timestamp: NOW });
    expect(failureOf({ nowSeconds: NOW - 301 })).toBe('timestamp_outside_tolerance');
  });

  it('honours a custom tolerance', () => {
    expect(failureOf({ nowSeconds: NOW + 11, toleranceSeconds: 10 })).toBe('timestamp_outside_tolerance');
    expect(valid({ nowSeconds: NOW + 3_000, toleranceSeconds: 3_600 })).toEqual({ timestamp: NOW });
  });

  it('uses the clock when no time is given', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifySignature({ header: signPayload(SECRET, BODY, now), rawBody: BODY, secret: SECRET })).toEqual({ timestamp: now });
    expect(() => verifySignature({ header: signPayload(SECRET, BODY, now - 3_600), rawBody: BODY, secret: SECRET })).toThrow(WebhookSignatureError);
  });

  describe('secret rotation', () => {
    const both = signPayload(['whsec_old', 'whsec_new'], BODY, NOW);

    it('accepts a header with two v1 values with either secret', () => {
      expect(valid({ header: both, secret: 'whsec_old' })).toEqual({ timestamp: NOW });
      expect(valid({ header: both, secret: 'whsec_new' })).toEqual({ timestamp: NOW });
      expect(failureOf({ header: both, secret: 'whsec_unrelated' })).toBe('signature_mismatch');
    });

    it('lets a receiver hold several secrets', () => {
      const oldOnly = signPayload('whsec_old', BODY, NOW);
      expect(valid({ header: oldOnly, secret: ['whsec_new', 'whsec_old'] })).toEqual({ timestamp: NOW });
      expect(failureOf({ header: oldOnly, secret: ['whsec_new', 'whsec_newer'] })).toBe('signature_mismatch');
    });
  });

  it('ignores other schemes and spaces, as Stripe does', () => {
    const [t, v1] = signPayload(SECRET, BODY, NOW).split(',');
    expect(valid({ header: `${t}, v0=abc, ${v1}` })).toEqual({ timestamp: NOW });
    expect(failureOf({ header: `${t},v0=${v1.slice(3)}` })).toBe('no_signature');
  });

  it('reads a header Node delivered as an array', () => {
    const [t, v1] = signPayload(SECRET, BODY, NOW).split(',');
    expect(valid({ header: [t, v1] })).toEqual({ timestamp: NOW });
  });

  it.each<[string, string | string[] | undefined | null, SignatureFailure]>([
    ['undefined', undefined, 'missing_header'],
    ['null', null, 'missing_header'],
    ['empty', '', 'missing_header'],
    ['no timestamp', 'v1=abcd', 'malformed_header'],
    ['non-numeric timestamp', 't=yesterday,v1=abcd', 'malformed_header'],
    ['negative timestamp', 't=-5,v1=abcd', 'malformed_header'],
    ['two timestamps', `t=${NOW},t=${NOW},v1=abcd`, 'malformed_header'],
    ['item without =', `t=${NOW},v1`, 'malformed_header'],
    ['item with empty key', `t=${NOW},=abc`, 'malformed_header'],
    ['only a timestamp', `t=${NOW}`, 'no_signature'],
    ['a v1 of the wrong length', `t=${NOW},v1=abcd`, 'signature_mismatch'],
    ['an empty v1', `t=${NOW},v1=`, 'signature_mismatch'],
  ])('rejects a header with %s', (_label, header, reason) => {
    expect(failureOf({ header })).toBe(reason);
  });

  it('is an unauthorized-kind domain error with a stable code', () => {
    try {
      valid({ secret: 'whsec_other' });
      throw new Error('verification unexpectedly succeeded');
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect(err).toMatchObject({ kind: 'unauthorized', code: 'INVALID_WEBHOOK_SIGNATURE', reason: 'signature_mismatch' });
    }
  });
});

describe('generateWebhookSecret', () => {
  it('is whsec_ and 32 random bytes in base64url, different every time', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice(6), 'base64url')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(a);
  });
});
