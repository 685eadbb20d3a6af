import { imageSignalsOf } from './local-image.signals';

describe('local image signals', () => {
  it('names explicit imagery (photo or drawn) sexual, and keeps suggestive apart', () => {
    expect(imageSignalsOf({ drawing: 0.05, hentai: 0.3, neutral: 0.05, porn: 0.5, sexy: 0.1 })).toEqual({
      sexual: 0.8,
      sexual_drawn: 0.3,
      sexual_suggestive: 0.1,
      drawing: 0.05,
      neutral: 0.05,
    });
  });

  it('stays within [0, 1] whatever the model rounds to', () => {
    const s = imageSignalsOf({ drawing: 0, hentai: 0.6, neutral: 0, porn: 0.6000001, sexy: -0.0000001 });
    expect(s.sexual).toBe(1);
    expect(s.sexual_suggestive).toBe(0);
  });
});
