import { DEFAULT_BATCH_LIMITS, nextBatchSize, validateBatchLimits } from './embedding-batch.rules';

describe('nextBatchSize', () => {
  const limits = { maxBatch: 4, maxBatchChars: 1000 };

  it('takes nothing from an empty queue', () => {
    expect(nextBatchSize([], 1, limits)).toBe(0);
  });

  it('sends a lone text at once, alone', () => {
    expect(nextBatchSize([50], 2, limits)).toBe(1);
  });

  it('takes what waits, up to maxBatch', () => {
    expect(nextBatchSize([10, 10, 10], 1, limits)).toBe(3);
    expect(nextBatchSize(Array(10).fill(10), 1, limits)).toBe(4);
  });

  it('shares a burst evenly among the idle workers', () => {
    expect(nextBatchSize(Array(6).fill(10), 2, limits)).toBe(3);
    expect(nextBatchSize(Array(5).fill(10), 2, limits)).toBe(3);
    expect(nextBatchSize(Array(3).fill(10), 4, limits)).toBe(1);
  });

  it('stops before the characters would pass maxBatchChars', () => {
    expect(nextBatchSize([400, 400, 400, 10], 1, limits)).toBe(2);
  });

  it('always takes the head of the queue, even when it alone is over the limit', () => {
    expect(nextBatchSize([5000, 10], 1, limits)).toBe(1);
  });
});

describe('validateBatchLimits', () => {
  it('accepts the defaults and rejects nonsense', () => {
    expect(() => validateBatchLimits(DEFAULT_BATCH_LIMITS)).not.toThrow();
    expect(() => validateBatchLimits({ maxBatch: 0, maxBatchChars: 10 })).toThrow(/maxBatch/);
    expect(() => validateBatchLimits({ maxBatch: 2.5, maxBatchChars: 10 })).toThrow(/maxBatch/);
    expect(() => validateBatchLimits({ maxBatch: 2, maxBatchChars: 0 })).toThrow(/maxBatchChars/);
  });
});
