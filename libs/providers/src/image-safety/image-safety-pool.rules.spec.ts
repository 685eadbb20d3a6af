import { MAX_SAFETY_BATCH, safetyBatchSize } from './image-safety-pool.rules';

describe('safetyBatchSize', () => {
  it('gives each idle worker an even share, rounded up, at most the largest batch', () => {
    expect(safetyBatchSize(1, 2)).toBe(1);
    expect(safetyBatchSize(8, 2)).toBe(4);
    expect(safetyBatchSize(7, 2)).toBe(4);
    expect(safetyBatchSize(3, 1)).toBe(3);
    expect(safetyBatchSize(40, 1)).toBe(MAX_SAFETY_BATCH);
  });

  it('takes nothing from an empty queue and at least one otherwise', () => {
    expect(safetyBatchSize(0, 2)).toBe(0);
    expect(safetyBatchSize(1, 0)).toBe(1);
  });
});
