import { ocrLongestSide, sequentialDecodeWork, spreadFrames } from './decode-plan';

describe('spreadFrames', () => {
  it('takes every frame of a short animation', () => {
    expect(spreadFrames(1, 8)).toEqual([0]);
    expect(spreadFrames(5, 8)).toEqual([0, 1, 2, 3, 4]);
    expect(spreadFrames(8, 8)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('spreads over a long one evenly, first and last included, never just the first N', () => {
    expect(spreadFrames(9, 8)).toEqual([0, 1, 2, 3, 5, 6, 7, 8]);
    expect(spreadFrames(100, 5)).toEqual([0, 25, 50, 74, 99]);
    expect(spreadFrames(3000, 8)).toEqual([0, 428, 857, 1285, 1714, 2142, 2571, 2999]);
  });

  it('gives distinct, increasing indices for any count above the maximum', () => {
    for (const max of [2, 3, 8, 64]) {
      for (const count of [max + 1, max + 2, 2 * max - 1, 2 * max, 1000]) {
        const picked = spreadFrames(count, max);
        expect(picked).toHaveLength(max);
        expect(picked[0]).toBe(0);
        expect(picked[max - 1]).toBe(count - 1);
        for (let i = 1; i < max; i++) expect(picked[i]).toBeGreaterThan(picked[i - 1]);
      }
    }
  });

  it('takes the first frame alone when one is asked for', () => {
    expect(spreadFrames(500, 1)).toEqual([0]);
  });

  it('treats a missing or zero count as one frame', () => {
    expect(spreadFrames(0, 8)).toEqual([0]);
  });
});

describe('sequentialDecodeWork', () => {
  it('counts every frame decoded on the way to each selected one', () => {
    expect(sequentialDecodeWork([0], 100)).toBe(100);
    expect(sequentialDecodeWork([0, 4, 9], 10)).toBe((1 + 5 + 10) * 10);
  });
});

describe('ocrLongestSide', () => {
  it('shrinks a large picture to the maximum', () => {
    expect(ocrLongestSide(4000, 3000, 2000)).toBe(2000);
    expect(ocrLongestSide(300, 5000, 2000)).toBe(2000);
  });

  it('enlarges a small picture twice, but never past the maximum', () => {
    expect(ocrLongestSide(400, 300, 2000)).toBe(800);
    expect(ocrLongestSide(1500, 900, 2000)).toBe(2000);
    expect(ocrLongestSide(2000, 10, 2000)).toBe(2000);
  });
});
