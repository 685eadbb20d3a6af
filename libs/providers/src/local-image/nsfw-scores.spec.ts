import { nsfwScoresAt } from './nsfw-scores';

describe('nsfwScoresAt', () => {
  // Two frames of the graph's [batch, 5] output: Drawing, Hentai, Neutral, Porn, Sexy.
  const batch = Float32Array.of(0.05, 0.03, 0.9, 0.005, 0.015, 0.1, 0.1, 0.1, 0.6, 0.1);

  it("maps frame i's five values to one field per class, in nsfwjs's order", () => {
    expect(nsfwScoresAt(batch, 0)).toEqual({
      drawing: Math.fround(0.05),
      hentai: Math.fround(0.03),
      neutral: Math.fround(0.9),
      porn: Math.fround(0.005),
      sexy: Math.fround(0.015),
    });
    expect(nsfwScoresAt(batch, 1).porn).toBe(Math.fround(0.6));
  });

  it('refuses an output too short for the frame, a non-probability, or values not summing to 1 (another model)', () => {
    expect(() => nsfwScoresAt(batch, 2)).toThrow(/fewer than 15/);
    expect(() => nsfwScoresAt(Float32Array.of(NaN, 0, 1, 0, 0), 0)).toThrow(/not a probability/);
    expect(() => nsfwScoresAt(Float32Array.of(0.5, 0.5, 0.5, 0, 0), 0)).toThrow(/sum to 1.5/);
  });
});
