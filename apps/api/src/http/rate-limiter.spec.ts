import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('allows up to the limit per window, then refuses with a retry delay', () => {
    const rl = new RateLimiter(3);
    const t0 = 60_000 * 28_333_334; // a window boundary
    expect(rl.hit('k', t0)).toMatchObject({ allowed: true, remaining: 2, limit: 3 });
    rl.hit('k', t0 + 1);
    expect(rl.hit('k', t0 + 2)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = rl.hit('k', t0 + 30_000);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfter: 30, reset: (t0 + 60_000) / 1000 });
    expect(rl.hit('other', t0 + 30_000).allowed).toBe(true);
    expect(rl.hit('k', t0 + 60_000)).toMatchObject({ allowed: true, remaining: 2 });
  });
});
