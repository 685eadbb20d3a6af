import { LOCAL_TEXT_SIGNALS, foldLocalTextSignals } from './local-text.signals';
import { LocalTextClassifier } from './local-text.classifier';
import { LocalTextModelFormatError } from './local-text-model.format';

/** Scores of the committed model, folded into categories. */
describe('LocalTextClassifier (committed model)', () => {
  const classifier = LocalTextClassifier.load();
  const cat = (text: string, lang: string) => foldLocalTextSignals(classifier.score(text, lang));

  it('loads and emits every signal as a probability in [0, 1]', () => {
    expect([...classifier.signals]).toEqual([...LOCAL_TEXT_SIGNALS]);
    const scores = classifier.score('Have a nice day!', 'en');
    expect(Object.keys(scores).sort()).toEqual([...LOCAL_TEXT_SIGNALS].sort());
    for (const v of Object.values(scores)) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
  });

  it.each([
    ['hate', 'en', 'Muslims are filthy vermin and should all be deported', 'Muslims celebrate Eid at the end of Ramadan'],
    ['hate', 'de', 'Ausländer sind Ungeziefer und gehören alle raus', 'Viele Ausländer arbeiten in der Pflege'],
    ['hate', 'fr', 'Les immigrés sont des parasites, je les déteste', 'Les immigrés ont contribué à la reconstruction'],
    ['violence', 'en', 'I am going to find you and stab you to death', 'I am going to find a good recipe for dinner'],
    ['violence', 'es', 'Te voy a matar, te voy a partir la cara', 'Te voy a llamar mañana para la cena'],
    ['sexual', 'en', 'Send me nudes, I want to fuck your tight pussy', 'Send me the slides from the meeting'],
    ['self-harm', 'en', 'I want to kill myself tonight, I have the pills ready', 'I want to visit my family tonight'],
    ['self-harm', 'pt', 'Eu quero me matar, não aguento mais viver', 'Eu quero viajar, não aguento mais o frio'],
    ['harassment', 'en', 'You are a worthless idiot and everyone hates you', 'You are a great friend and everyone likes you'],
  ] as const)('scores %s (%s) above a neutral sentence', (category, lang, bad, neutral) => {
    const b = cat(bad, lang)[category];
    const n = cat(neutral, lang)[category];
    expect(b).toBeGreaterThan(n);
    expect(b - n).toBeGreaterThan(0.2);
  });

  it.each([
    'How do I kill a Python process?',
    'What is the best way to shoot a photo at sunset?',
    'How do I terminate a C program?',
    'Where can I buy a can of coke?',
  ])('keeps the hard negative "%s" below 0.5 everywhere', (text) => {
    const folded = cat(text, 'en');
    for (const v of Object.values(folded)) expect(v).toBeLessThan(0.5);
  });

  it('never throws, whatever the input', () => {
    const hostile: unknown[] = [
      '',
      ' ',
      '\u0000\u0001\u0002',
      '\ud800',
      '\udfff\ud800',
      '🔥'.repeat(5000),
      'a'.repeat(200_000),
      '\u202e\u2066 rtl',
      'x'.repeat(30_000) + ' kill',
      '\u0300\u0301\u0302',
      'ＡＢＣ',
      '𝓯𝓾𝓬𝓴',
      undefined,
      null,
      42,
      {},
      [],
    ];
    for (const text of hostile) {
      for (const lang of ['en', 'xx', '', 'pt-BR', undefined as unknown as string]) {
        const scores = classifier.score(text as string, lang);
        for (const v of Object.values(scores)) expect(v >= 0 && v <= 1).toBe(true);
      }
    }
  });

  it('is deterministic across calls and instances', () => {
    const text = 'Je vais te tuer, sale idiot';
    const a = classifier.score(text, 'fr');
    classifier.score('something else entirely', 'en');
    expect(classifier.score(text, 'fr')).toEqual(a);
    expect(LocalTextClassifier.load().score(text, 'fr')).toEqual(a);
  });

  it('fails at load time, not at scoring time, when the model is missing', () => {
    expect(() => LocalTextClassifier.load('/nonexistent/model/dir')).toThrow(LocalTextModelFormatError);
  });
});
