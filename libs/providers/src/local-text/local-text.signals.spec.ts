import {
  LOCAL_TEXT_CATEGORIES,
  LOCAL_TEXT_SIGNALS,
  LOCAL_TEXT_SIGNAL_DESCRIPTIONS,
  LOCAL_TEXT_SIGNAL_FOLDING,
  SUPPORTED_LANGUAGES,
  foldLocalTextSignals,
  isSupportedLanguage,
} from './local-text.signals';

describe('local text signals', () => {
  it('names every signal in the provider signal format and describes it', () => {
    for (const s of LOCAL_TEXT_SIGNALS) {
      expect(s).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(LOCAL_TEXT_SIGNAL_DESCRIPTIONS[s].length).toBeGreaterThan(0);
    }
  });

  it('folds every category from known signals, and self_harm* into self-harm', () => {
    expect(Object.keys(LOCAL_TEXT_SIGNAL_FOLDING).sort()).toEqual([...LOCAL_TEXT_CATEGORIES].sort());
    for (const signals of Object.values(LOCAL_TEXT_SIGNAL_FOLDING)) {
      for (const s of signals) expect(LOCAL_TEXT_SIGNALS).toContain(s);
    }
    expect(LOCAL_TEXT_SIGNAL_FOLDING['self-harm']).toEqual(['self_harm', 'self_harm_intent']);
  });

  it("takes the max of a category's signals; profanity alone triggers nothing", () => {
    const folded = foldLocalTextSignals({ harassment: 0.2, insult: 0.7, profanity: 0.99, toxicity: 0.9 });
    expect(folded).toEqual({ sexual: 0, hate: 0, harassment: 0.7, violence: 0, 'self-harm': 0 });
  });

  it('lists the 17 languages of the spec', () => {
    expect(SUPPORTED_LANGUAGES).toHaveLength(17);
    expect(isSupportedLanguage('cs')).toBe(true);
    expect(isSupportedLanguage('zh')).toBe(false);
  });
});
