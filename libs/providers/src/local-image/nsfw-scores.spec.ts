import { nsfwScoresOf } from './nsfw-scores';

describe('nsfwScoresOf', () => {
  const predictions = [
    { className: 'Neutral', probability: 0.9 },
    { className: 'Drawing', probability: 0.05 },
    { className: 'Hentai', probability: 0.03 },
    { className: 'Sexy', probability: 0.015 },
    { className: 'Porn', probability: 0.005 },
  ];

  it('maps the sorted top-5 list to one field per class', () => {
    expect(nsfwScoresOf(predictions)).toEqual({ drawing: 0.05, hentai: 0.03, neutral: 0.9, porn: 0.005, sexy: 0.015 });
  });

  it('refuses a list that lacks a class or names an unknown one (another model)', () => {
    expect(() => nsfwScoresOf(predictions.slice(0, 4))).toThrow(/no probability for porn/);
    expect(() => nsfwScoresOf([...predictions, { className: 'Gore', probability: 0 }])).toThrow(/unexpected nsfwjs class "Gore"/);
  });

  it('refuses a non-finite probability', () => {
    expect(() => nsfwScoresOf([{ className: 'Neutral', probability: NaN }, ...predictions.slice(1)])).toThrow(/non-finite/);
  });
});
