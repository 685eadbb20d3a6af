import { REQUIRED_TESSERACT_PACKS, normalizeOcrText, ocrLanguagePlan, tesseractArgs, tesseractLanguage } from './tesseract.args';

describe('tesseractLanguage', () => {
  it('reads English alone and every other language with English mixed in', () => {
    expect(tesseractLanguage('en')).toBe('eng');
    expect(tesseractLanguage('de')).toBe('deu+eng');
    expect(tesseractLanguage('ja')).toBe('jpn+eng');
    expect(tesseractLanguage('cs')).toBe('ces+eng');
  });

  it('covers the 17 languages with 17 distinct packs', () => {
    const codes = ['en', 'es', 'fr', 'de', 'pt', 'it', 'ru', 'tr', 'ar', 'hi', 'id', 'ja', 'ko', 'pl', 'nl', 'sv', 'cs'];
    expect(codes.map(tesseractLanguage)).toEqual([
      'eng',
      'spa+eng',
      'fra+eng',
      'deu+eng',
      'por+eng',
      'ita+eng',
      'rus+eng',
      'tur+eng',
      'ara+eng',
      'hin+eng',
      'ind+eng',
      'jpn+eng',
      'kor+eng',
      'pol+eng',
      'nld+eng',
      'swe+eng',
      'ces+eng',
    ]);
    expect(new Set(REQUIRED_TESSERACT_PACKS).size).toBe(17);
  });

  it('reads a region subtag or odd casing as its language', () => {
    expect(tesseractLanguage('pt-BR')).toBe('por+eng');
    expect(tesseractLanguage(' FR ')).toBe('fra+eng');
  });

  it('falls back to English for anything else, so nothing the caller sends reaches argv', () => {
    for (const odd of ['zh', '', 'xx', '--tessdata-dir', 'eng+deu', 'constructor', '__proto__']) expect(tesseractLanguage(odd)).toBe('eng');
  });
});

describe('tesseractArgs', () => {
  it('reads PNG from stdin and writes text to stdout, automatic segmentation by default', () => {
    expect(tesseractArgs({ language: 'en' })).toEqual(['stdin', 'stdout', '-l', 'eng', '--psm', '3']);
    expect(tesseractArgs({ language: 'de', psm: 11 })).toEqual(['stdin', 'stdout', '-l', 'deu+eng', '--psm', '11']);
  });

  it('refuses a segmentation mode that reads no text', () => {
    for (const psm of [0, 2, 14, 3.5, -1]) expect(() => tesseractArgs({ language: 'en', psm })).toThrow(RangeError);
  });
});

describe('normalizeOcrText', () => {
  it('collapses lines, blank lines and the trailing form feed into single spaces', () => {
    expect(normalizeOcrText('WHEN YOU SEE IT\n\nyou will\tdie today\n\f')).toBe('WHEN YOU SEE IT you will die today');
    expect(normalizeOcrText('  \n\f ')).toBe('');
    expect(normalizeOcrText('')).toBe('');
  });

  it('drops control characters but keeps any script', () => {
    expect(normalizeOcrText('a\u0000b\u0007c Привет 日本語 مرحبا')).toBe('abc Привет 日本語 مرحبا');
  });

  it('reads a lone bar before a lowercase word as the capital I of a sans-serif font', () => {
    expect(normalizeOcrText('| will kill you tonight')).toBe('I will kill you tonight');
    expect(normalizeOcrText("ok |'m done, | hate it")).toBe("ok I'm done, I hate it");
    expect(normalizeOcrText('a | B | 3 || x |y')).toBe('a | B | 3 || x |y');
  });
});

describe('ocrLanguagePlan', () => {
  const all = new Set(REQUIRED_TESSERACT_PACKS);
  it('reads with the language and English when both packs are there', () => {
    expect(ocrLanguagePlan('de', all)).toEqual({ languages: 'deu+eng', missing: [] });
    expect(ocrLanguagePlan('en', all)).toEqual({ languages: 'eng', missing: [] });
  });

  it('reads with English alone, naming the missing pack, when the language has none', () => {
    const noRussian = new Set(REQUIRED_TESSERACT_PACKS.filter((p) => p !== 'rus'));
    expect(ocrLanguagePlan('ru', noRussian)).toEqual({ languages: 'eng', missing: ['rus'] });
    expect(ocrLanguagePlan('de', noRussian)).toEqual({ languages: 'deu+eng', missing: [] });
  });

  it('names English too when even it is missing (the engine then reads with what it has)', () => {
    expect(ocrLanguagePlan('de', new Set(['deu']))).toEqual({ languages: 'deu', missing: ['eng'] });
    expect(ocrLanguagePlan('en', new Set())).toEqual({ languages: 'eng', missing: ['eng'] });
  });
});
