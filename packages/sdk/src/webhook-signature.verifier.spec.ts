import { createHmac } from 'node:crypto';
import { checkWebhookSignature, verifyWebhookSignature } from './webhook-signature.verifier';

const secret = 'whsec_test_0123456789abcdefghij';
const body = '{"id":"evt_1","type":"decision.created","createdAt":"2025-01-01T00:00:00.000Z","data":{"id":"d1"}}';
const t = 1_735_689_600; // 2025-01-01T00:00:00Z
const now = t * 1000 + 30_000;
const sign = (ts: number, raw: string | Buffer, key = secret) => createHmac('sha256', key).update(`${ts}.`).update(raw).digest('hex');

describe('verifyWebhookSignature', () => {
  it('accepts a known vector: HMAC-SHA256 of "<t>.<raw body>", hex', () => {
    // Computed independently of the verifier, with the same primitive the scheme names.
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(expected).toBe(sign(t, body));
    const header = `t=${t},v1=${expected}`;
    expect(verifyWebhookSignature({ header, rawBody: body, secret, now })).toBe(true);
    expect(checkWebhookSignature({ header, rawBody: Buffer.from(body), secret, now })).toEqual({ ok: true, timestamp: t });
    expect(verifyWebhookSignature({ header: [header], rawBody: new Uint8Array(Buffer.from(body)), secret, now: new Date(now) })).toBe(true);
  });

  it('refuses a tampered body, a re-serialized body and another secret', () => {
    const header = `t=${t},v1=${sign(t, body)}`;
    expect(checkWebhookSignature({ header, rawBody: body.replace('d1', 'd2'), secret, now })).toEqual({ ok: false, reason: 'signature_mismatch' });
    expect(verifyWebhookSignature({ header, rawBody: JSON.stringify(JSON.parse(body), null, 1), secret, now })).toBe(false);
    expect(verifyWebhookSignature({ header, rawBody: body, secret: 'whsec_other', now })).toBe(false);
  });

  it('refuses a signature with another timestamp than the one signed', () => {
    expect(verifyWebhookSignature({ header: `t=${t + 1},v1=${sign(t, body)}`, rawBody: body, secret, now })).toBe(false);
  });

  it('refuses a timestamp more than the tolerance away, either way', () => {
    const old = t - 301;
    const header = `t=${old},v1=${sign(old, body)}`;
    expect(checkWebhookSignature({ header, rawBody: body, secret, now: t * 1000 })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    const future = t + 301;
    expect(verifyWebhookSignature({ header: `t=${future},v1=${sign(future, body)}`, rawBody: body, secret, now: t * 1000 })).toBe(false);
    expect(verifyWebhookSignature({ header: `t=${t - 300},v1=${sign(t - 300, body)}`, rawBody: body, secret, now: t * 1000 })).toBe(true);
    expect(verifyWebhookSignature({ header, rawBody: body, secret, now: t * 1000, toleranceSeconds: 600 })).toBe(true);
  });

  it('accepts any of several v1 values and any of several secrets (rotation)', () => {
    const header = `t=${t},v1=${'0'.repeat(64)},v1=${sign(t, body)},v0=ignored`;
    expect(verifyWebhookSignature({ header, rawBody: body, secret, now })).toBe(true);
    const rotated = `t=${t},v1=${sign(t, body, 'whsec_new')}`;
    expect(verifyWebhookSignature({ header: rotated, rawBody: body, secret: [secret, 'whsec_new'], now })).toBe(true);
    expect(verifyWebhookSignature({ header: rotated, rawBody: body, secret: [secret], now })).toBe(false);
  });

  it('says why a header is unusable', () => {
    const check = (header: string | undefined) => checkWebhookSignature({ header, rawBody: body, secret, now });
    expect(check(undefined)).toEqual({ ok: false, reason: 'missing_header' });
    expect(check('  ')).toEqual({ ok: false, reason: 'missing_header' });
    expect(check(`v1=${sign(t, body)}`)).toEqual({ ok: false, reason: 'malformed_header' });
    expect(check(`t=abc,v1=${sign(t, body)}`)).toEqual({ ok: false, reason: 'malformed_header' });
    expect(check(`t=${t},t=${t},v1=${sign(t, body)}`)).toEqual({ ok: false, reason: 'malformed_header' });
    expect(check(`t=${t},garbage`)).toEqual({ ok: false, reason: 'malformed_header' });
    expect(check(`t=${t}`)).toEqual({ ok: false, reason: 'no_signature' });
    expect(check(`t=${t},v1=nothex`)).toEqual({ ok: false, reason: 'no_signature' });
    expect(check(`t=${t},v1=${sign(t, body).toUpperCase()},`)).toEqual({ ok: true, timestamp: t });
  });

  it('does not accept an empty secret', () => {
    const header = `t=${t},v1=${sign(t, body, '')}`;
    expect(() => sign(t, body, '')).not.toThrow();
    expect(verifyWebhookSignature({ header, rawBody: body, secret: '', now })).toBe(false);
  });
});
