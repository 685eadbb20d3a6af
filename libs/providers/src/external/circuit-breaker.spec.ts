import { CircuitBreaker } from './circuit-breaker';

describe('CircuitBreaker', () => {
  let now = 0;
  const breaker = (failureThreshold = 3, cooldownMs = 30_000) => new CircuitBreaker({ failureThreshold, cooldownMs, now: () => now });
  beforeEach(() => (now = 1_000_000));

  it('opens after N consecutive failures; a success in between starts the count again', () => {
    const b = breaker();
    b.onFailure();
    b.onFailure();
    b.onSuccess();
    b.onFailure();
    b.onFailure();
    expect(b.state()).toBe('closed');
    expect(b.tryAcquire()).toBe(true);
    b.onFailure();
    expect(b.state()).toBe('open');
    expect(b.tryAcquire()).toBe(false);
  });

  it('half-opens after the cool-down and lets exactly one probe through', () => {
    const b = breaker(1, 30_000);
    b.onFailure();
    now += 29_999;
    expect(b.state()).toBe('open');
    now += 1;
    expect(b.state()).toBe('half_open');
    expect(b.tryAcquire()).toBe(true);
    expect(b.tryAcquire()).toBe(false);
    b.onSuccess();
    expect(b.state()).toBe('closed');
    expect(b.tryAcquire()).toBe(true);
  });

  it('re-opens for a whole new cool-down when the probe fails', () => {
    const b = breaker(2, 1000);
    b.onFailure();
    b.onFailure();
    now += 1000;
    expect(b.tryAcquire()).toBe(true);
    b.onFailure();
    expect(b.state()).toBe('open');
    now += 999;
    expect(b.tryAcquire()).toBe(false);
    now += 1;
    expect(b.tryAcquire()).toBe(true);
  });

  it('defaults to the real clock', () => {
    const b = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 60_000 });
    b.onFailure();
    expect(b.state()).toBe('open');
  });
});
