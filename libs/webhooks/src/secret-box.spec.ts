import { deriveWebhookSecretKey, openSecret, sealSecret, SecretBoxError } from './secret-box';

describe('secret box', () => {
  const key = deriveWebhookSecretKey('an admin key of some length');

  it('round-trips a secret and never contains it in clear', () => {
    const box = sealSecret(key, 'whsec_abcdef');
    expect(box).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(box).not.toContain('whsec_abcdef');
    expect(openSecret(key, box)).toBe('whsec_abcdef');
  });

  it('seals the same secret differently each time (random IV)', () => {
    expect(sealSecret(key, 's')).not.toBe(sealSecret(key, 's'));
  });

  it('refuses another key, a tampered box and garbage', () => {
    const box = sealSecret(key, 'whsec_abcdef');
    expect(() => openSecret(deriveWebhookSecretKey('another key'), box)).toThrow(SecretBoxError);
    const parts = box.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(() => openSecret(key, [parts[0], parts[1], parts[2], flipped.toString('base64url')].join('.'))).toThrow(SecretBoxError);
    expect(() => openSecret(key, 'whsec_abcdef')).toThrow(SecretBoxError);
  });

  it('derives a 32-byte key that depends on the material and is not the material', () => {
    expect(deriveWebhookSecretKey('x')).toHaveLength(32);
    expect(deriveWebhookSecretKey('x').equals(deriveWebhookSecretKey('y'))).toBe(false);
    expect(deriveWebhookSecretKey('x').equals(deriveWebhookSecretKey('x'))).toBe(true);
  });
});
