import { bearerToken, generateApiKey, hashApiKey, isScope, sameHash } from './api-key';

describe('api keys', () => {
  it('generates distinct keys whose hash matches and whose prefix is a visible hint', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a.key).not.toBe(b.key);
    expect(a.key.startsWith(a.prefix)).toBe(true);
    expect(hashApiKey(a.key)).toBe(a.hash);
    expect(sameHash(a.hash, hashApiKey(a.key))).toBe(true);
    expect(sameHash(a.hash, b.hash)).toBe(false);
  });

  it('reads bearer tokens and rejects other shapes', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer   abc ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken('Bearer ')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
    expect(bearerToken(['Bearer a'])).toBeNull();
  });

  it('knows the scopes', () => {
    expect(isScope('checks')).toBe(true);
    expect(isScope('admin')).toBe(false);
    expect(isScope(3)).toBe(false);
  });
});
