import { MAX_RETRY_AFTER_SECONDS, drainSeconds } from './queue-drain.rules';

describe('drainSeconds', () => {
  it('is the queue over the live workers’ summed pace, rounded up', () => {
    // two workers at 100 and 50 items/s: 150/s; 600 queued take 4 s
    const workers = [
      { ready: true, items: 1000, busyMs: 10_000 },
      { ready: true, items: 500, busyMs: 10_000 },
    ];
    expect(drainSeconds(600, workers)).toBe(4);
    expect(drainSeconds(601, workers)).toBe(5);
  });

  it('leaves out a worker that is down, and says 1 s before anything was measured or for a short queue', () => {
    expect(
      drainSeconds(300, [
        { ready: true, items: 100, busyMs: 1000 },
        { ready: false, items: 1e6, busyMs: 1 },
      ]),
    ).toBe(3);
    expect(drainSeconds(300, [{ ready: true, items: 0, busyMs: 0 }])).toBe(1);
    expect(drainSeconds(1, [{ ready: true, items: 100, busyMs: 1000 }])).toBe(1);
    expect(drainSeconds(1e9, [{ ready: true, items: 1, busyMs: 1000 }])).toBe(MAX_RETRY_AFTER_SECONDS);
  });
});
