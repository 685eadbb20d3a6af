import { MAX_TEXT_CHARS, normalizeText, normalizeTokens } from './text-normalizer';

describe('normalizeTokens', () => {
  it('lowercases, applies NFKC and strips Latin diacritics', () => {
    expect(normalizeTokens('Héllo ＷＯＲＬＤ Straße ŞÇ İstanbul')).toEqual(['hello', 'world', 'strasse', 'sc', 'istanbul']);
  });

  it('undoes leetspeak inside words but leaves numbers alone', () => {
    expect(normalizeTokens('f4gg0t sh!t $hit a$$hole 2024 covid19')).toEqual(['faggot', 'shit', 'shit', 'asshole', '2024', 'covid19']);
  });

  it('collapses runs of 3+ identical characters to 2', () => {
    expect(normalizeTokens('fuuuuuck nooooo ㅋㅋㅋㅋㅋ')).toEqual(['fuuck', 'noo', 'ᄏᄏ']);
  });

  it('joins spaced-out letters and drops zero-width characters', () => {
    expect(normalizeTokens('you are such a k i l l e r')).toEqual(['you', 'are', 'such', 'akiller']);
    expect(normalizeTokens('i will k i l l you')).toEqual(['i', 'will', 'kill', 'you']);
    expect(normalizeTokens('k\u200bi\u200bl\u200bl')).toEqual(['kill']);
  });

  it('replaces URLs and mentions with placeholders and keeps emoji as tokens', () => {
    expect(normalizeTokens('@someone look https://x.y/z 🔥🔥🔥🔥')).toEqual(['_user_', 'look', '_url_', '🔥', '🔥']);
  });

  it('unifies Arabic letter variants and drops harakat, keeps Devanagari and Hangul intact', () => {
    expect(normalizeText('أَهْلاً إلى')).toBe('اهلا الي');
    expect(normalizeText('नमस्ते दुनिया')).toBe('नमस्ते दुनिया');
    expect(normalizeText('안녕하세요')).toBe('안녕하세요');
  });

  it('never throws and caps very long input', () => {
    for (const input of ['', '\u0000\u0001\u001f', '\ud800\udfff\ud800', '\u202e\u2066', undefined, null, 42, {}]) {
      expect(() => normalizeTokens(input)).not.toThrow();
    }
    const huge = 'a '.repeat(MAX_TEXT_CHARS);
    expect(normalizeTokens(huge).length).toBeLessThanOrEqual(MAX_TEXT_CHARS / 2);
  });
});
