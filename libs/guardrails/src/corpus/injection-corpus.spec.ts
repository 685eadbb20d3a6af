import { INJECTION_CASES, INJECTION_HOLDOUT_CASES, INJECTION_THIRD_CASES } from './injection-cases';
import { injectionTable, runInjectionCase } from './injection-runner';

/**
 * The prompt-attack corpus under the rules alone (no model: what skill vetting does under
 * LOCAL_TEXT_MODEL=ngram). The learned detector's figures come from `npm run eval:injection`
 * (GUARDRAILS.md); here the rules must keep their zero false positives, and catch what they
 * are for: self-hiding steering in every language.
 */
describe('prompt-attack corpus, rules only', () => {
  const results = INJECTION_CASES.map((c) => runInjectionCase(c));

  it('covers 17 languages with ids unique, attacks and look-alikes in each', () => {
    expect(new Set(INJECTION_CASES.map((c) => c.id)).size).toBe(INJECTION_CASES.length);
    const langs = new Set(INJECTION_CASES.map((c) => c.lang));
    expect(langs.size).toBe(17);
    for (const l of langs) {
      expect(INJECTION_CASES.filter((c) => c.lang === l && c.attack).length).toBeGreaterThanOrEqual(6);
      expect(INJECTION_CASES.filter((c) => c.lang === l && !c.attack).length).toBeGreaterThanOrEqual(6);
    }
  });

  it('flags no benign look-alike', () => {
    expect(results.filter((r) => !r.c.attack && r.caught).map((r) => `${r.c.id}: ${r.verdict.reasons.join('; ')}`)).toEqual([]);
  });

  it('catches self-hiding steering in every language', () => {
    expect(results.filter((r) => r.c.family === 'hiding' && !r.caught).map((r) => r.c.id)).toEqual([]);
  });

  it('prints its figures', () => {
    const table = injectionTable(results, 'family');
    expect(table).toContain('**all**');
    if (process.env.INJECTION_CORPUS_REPORT === '1') process.stdout.write(`${table}\n\n${injectionTable(results, 'lang')}\n`);
  });
});

describe('held-out prompt-attack sets', () => {
  it('the third set covers 17 languages, 7+ attacks and 8+ look-alikes each, 21+ and 24+ in English', () => {
    const langs = new Set(INJECTION_THIRD_CASES.map((c) => c.lang));
    expect(langs.size).toBe(17);
    for (const l of langs) {
      const n = (attack: boolean) => INJECTION_THIRD_CASES.filter((c) => c.lang === l && c.attack === attack).length;
      expect(n(true)).toBeGreaterThanOrEqual(l === 'en' ? 21 : 7);
      expect(n(false)).toBeGreaterThanOrEqual(l === 'en' ? 24 : 8);
    }
  });

  it('ids are unique across the three sets and no text repeats one of another set', () => {
    const all = [...INJECTION_CASES, ...INJECTION_HOLDOUT_CASES, ...INJECTION_THIRD_CASES];
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    expect(new Set(all.map((c) => c.text.toLowerCase())).size).toBe(all.length);
  });
});
