import { mapBounded } from './bounded-pool';

describe('mapBounded', () => {
  it('keeps input order and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapBounded([30, 5, 20, 1, 10, 2], 2, async (ms, i) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      return i;
    });
    expect(out).toEqual([0, 1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
  });

  it('handles an empty list and a limit above the item count', async () => {
    expect(await mapBounded([], 4, async () => 1)).toEqual([]);
    expect(await mapBounded([1, 2], 10, async (x) => x * 2)).toEqual([2, 4]);
  });
});
