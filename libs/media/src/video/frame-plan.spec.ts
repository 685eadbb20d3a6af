import { planFrames, SEEK_MIN_INTERVAL_SECONDS } from './frame-plan';

describe('planFrames', () => {
  it('samples 0, 2, 4 in a 5 s video at an interval of 2 s', () => {
    expect(planFrames({ durationSeconds: 5, frameInterval: 2, maxFrames: 10, mode: 'interval' })).toEqual({
      mode: 'interval',
      interval: 2,
      maxFrames: 10,
      estimatedFrames: 3,
      timestamps: [0, 2, 4],
      method: 'sequential',
    });
  });

  it('keeps frames strictly before the end: 6 s at 2 s is 0, 2, 4 (no frame at 6)', () => {
    expect(planFrames({ durationSeconds: 6, frameInterval: 2, maxFrames: 10, mode: 'interval' }).timestamps).toEqual([0, 2, 4]);
  });

  it('does not add a frame at the end through floating-point rounding (0.3 s at 0.1 s)', () => {
    expect(planFrames({ durationSeconds: 0.3, frameInterval: 0.1, maxFrames: 10, mode: 'interval' }).timestamps).toEqual([0, 0.1, 0.2]);
  });

  it('gives a video shorter than the interval one frame, at 0', () => {
    const plan = planFrames({ durationSeconds: 0.4, frameInterval: 2, maxFrames: 10, mode: 'interval' });
    expect(plan).toMatchObject({ timestamps: [0], estimatedFrames: 1, interval: 2 });
  });

  it('widens the interval so maxFrames cover the whole video instead of cutting after the first ones', () => {
    const plan = planFrames({ durationSeconds: 60, frameInterval: 2, maxFrames: 10, mode: 'interval' });
    expect(plan.interval).toBe(6);
    expect(plan.timestamps).toEqual([0, 6, 12, 18, 24, 30, 36, 42, 48, 54]);
    expect(plan.estimatedFrames).toBe(10);
  });

  it('widens to an uneven interval with timestamps rounded to the microsecond', () => {
    const plan = planFrames({ durationSeconds: 10, frameInterval: 1, maxFrames: 3, mode: 'interval' });
    expect(plan.interval).toBeCloseTo(10 / 3, 12);
    expect(plan.timestamps).toEqual([0, 3.333333, 6.666667]);
  });

  it('keeps the asked interval when it already fits in maxFrames', () => {
    const plan = planFrames({ durationSeconds: 20, frameInterval: 2, maxFrames: 10, mode: 'interval' });
    expect(plan.interval).toBe(2);
    expect(plan.timestamps).toHaveLength(10);
  });

  it(`decodes sequentially below an interval of ${SEEK_MIN_INTERVAL_SECONDS} s and seeks from it on`, () => {
    const method = (frameInterval: number, durationSeconds = 120) => planFrames({ durationSeconds, frameInterval, maxFrames: 100, mode: 'interval' }).method;
    expect(method(2)).toBe('sequential');
    expect(method(SEEK_MIN_INTERVAL_SECONDS - 0.001)).toBe('sequential');
    expect(method(SEEK_MIN_INTERVAL_SECONDS)).toBe('seek');
    expect(method(30)).toBe('seek');
    // a long video whose interval is widened past the threshold seeks too
    expect(planFrames({ durationSeconds: 3600, frameInterval: 2, maxFrames: 60, mode: 'interval' })).toMatchObject({ interval: 60, method: 'seek' });
  });

  it('leaves scene times to ffmpeg: no timestamps, always sequential, the gap widened the same way', () => {
    expect(planFrames({ durationSeconds: 60, frameInterval: 2, maxFrames: 10, mode: 'scenes' })).toEqual({
      mode: 'scenes',
      interval: 6,
      maxFrames: 10,
      estimatedFrames: 10,
      timestamps: [],
      method: 'sequential',
    });
    expect(planFrames({ durationSeconds: 600, frameInterval: 30, maxFrames: 100, mode: 'scenes' })).toMatchObject({
      interval: 30,
      estimatedFrames: 20,
      method: 'sequential',
    });
  });

  it('refuses a duration, interval or maxFrames that cannot be planned', () => {
    const base = { durationSeconds: 10, frameInterval: 2, maxFrames: 5, mode: 'interval' as const };
    expect(() => planFrames({ ...base, durationSeconds: 0 })).toThrow(RangeError);
    expect(() => planFrames({ ...base, durationSeconds: Number.NaN })).toThrow(RangeError);
    expect(() => planFrames({ ...base, frameInterval: 0 })).toThrow(RangeError);
    expect(() => planFrames({ ...base, maxFrames: 0 })).toThrow(RangeError);
    expect(() => planFrames({ ...base, maxFrames: 2.5 })).toThrow(RangeError);
  });
});
