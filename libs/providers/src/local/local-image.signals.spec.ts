import { imageSignalsOf, LOCAL_IMAGE_SIGNAL_FOLDING } from './local-image.signals';
import { LOCAL_SIGNAL_FOLDING } from './local.provider';

const safe = { nsfl: 0.03, nsfw: 0.04, sfw: 0.93 };

describe('local image signals', () => {
  it('names explicit imagery (photo or drawn) sexual, keeps suggestive apart, and adds the safety model as its own signals', () => {
    expect(imageSignalsOf({ nsfw: { drawing: 0.05, hentai: 0.3, neutral: 0.05, porn: 0.5, sexy: 0.1 }, safety: { nsfl: 0.1, nsfw: 0.7, sfw: 0.2 } })).toEqual({
      sexual: 0.8,
      sexual_nsfw: 0.7,
      sexual_drawn: 0.3,
      sexual_suggestive: 0.1,
      violence_graphic: 0.1,
      drawing: 0.05,
      neutral: 0.05,
    });
  });

  it('stays within [0, 1] whatever the model rounds to', () => {
    const s = imageSignalsOf({ nsfw: { drawing: 0, hentai: 0.6, neutral: 0, porn: 0.6000001, sexy: -0.0000001 }, safety: { ...safe, nsfl: 1.0000002 } });
    expect(s.sexual).toBe(1);
    expect(s.sexual_suggestive).toBe(0);
    expect(s.violence_graphic).toBe(1);
  });

  it('folds NSFW (with nsfwjs sexual) into sexual and NSFL into violence; suggestive into nothing', () => {
    expect(LOCAL_SIGNAL_FOLDING.sexual).toEqual(expect.arrayContaining(['sexual', 'sexual_nsfw']));
    expect(LOCAL_SIGNAL_FOLDING.violence).toEqual(expect.arrayContaining(['violence', 'violence_threat', 'violence_graphic']));
    expect(Object.values(LOCAL_SIGNAL_FOLDING).flat()).not.toContain('sexual_suggestive');
    expect(LOCAL_IMAGE_SIGNAL_FOLDING).toEqual({ sexual: ['sexual', 'sexual_nsfw'], violence: ['violence_graphic'] });
  });
});
