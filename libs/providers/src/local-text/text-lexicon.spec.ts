import * as fs from 'node:fs';
import * as path from 'node:path';
import { toCodePoints } from './text-hash';
import { LexiconFile, LexiconIndex } from './text-lexicon';
import { normalizeText } from './text-normalizer';

const file: LexiconFile = {
  version: 1,
  categories: ['obscene', 'self_harm'],
  entries: {
    en: { obscene: ['ass', 'bastard'], self_harm: ['kill myself'] },
    ja: { self_harm: ['死にたい'] },
    sv: { obscene: ['fan'] },
  },
};

function hits(index: LexiconIndex, text: string, lang: string): number[] {
  const [cps, len] = toCodePoints(` ${normalizeText(text)} `, new Int32Array(8));
  const counts = new Float64Array(index.categories.length);
  index.count(cps, len, index.languageMask(lang), counts);
  return Array.from(counts);
}

describe('LexiconIndex', () => {
  const index = LexiconIndex.fromFile(file);

  it('matches short terms as whole tokens only', () => {
    expect(hits(index, 'what an ass', 'en')).toEqual([1, 0]);
    expect(hits(index, 'my assistant passed the class', 'en')).toEqual([0, 0]);
  });

  it('matches long terms as prefixes (inflections) and phrases across tokens', () => {
    expect(hits(index, 'those bastards', 'en')).toEqual([1, 0]);
    expect(hits(index, 'I want to KILL MYSELF', 'en')).toEqual([0, 1]);
  });

  it('matches unspaced scripts inside longer runs', () => {
    expect(hits(index, 'もう死にたいよ', 'ja')).toEqual([0, 1]);
  });

  it("applies a language's own list plus English, and every list when the language is unknown", () => {
    expect(hits(index, 'fan club', 'en')).toEqual([0, 0]);
    expect(hits(index, 'fan också', 'sv')).toEqual([1, 0]);
    expect(hits(index, 'fan', 'xx')).toEqual([1, 0]);
    expect(hits(index, 'you ass', 'sv')).toEqual([1, 0]);
  });
});

describe('LexiconIndex over the shipped lexicon', () => {
  it('finds every term when the text is that term (the hash filter lets none through unlooked)', () => {
    const shipped = JSON.parse(fs.readFileSync(path.join(__dirname, 'model/local-text-lexicons.json'), 'utf8')) as LexiconFile;
    const index = LexiconIndex.fromFile(shipped);
    const missed: string[] = [];
    let terms = 0;
    for (const [lang, categories] of Object.entries(shipped.entries)) {
      for (const [category, list] of Object.entries(categories)) {
        const k = index.categories.indexOf(category);
        for (const term of list) {
          if (normalizeText(term) !== term) continue; // a term no normalised text can hold (`_user_`)
          terms++;
          if (hits(index, term, lang === '*' ? 'xx' : lang)[k] < 1) missed.push(`${lang}/${category}: ${term}`);
        }
      }
    }
    expect(terms).toBeGreaterThan(1000);
    expect(missed).toEqual([]);
  });
});
