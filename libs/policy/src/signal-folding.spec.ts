import { domainFailure } from '@cds/testing';
import { evaluate } from './policy.evaluator';
import { parsePolicyYaml } from './policy.yaml-parser';
import { DEFAULT_SIGNAL_FOLDING, foldSignals, scoresForDryRun } from './signal-folding';

const failure = domainFailure;

describe('foldSignals', () => {
  it('scores each category as the max of its signals and keeps every signal under its own name', () => {
    const folded = foldSignals({ hate: 0.2, hate_threat: 0.7, self_harm_intent: 0.4, self_harm: 0.1, profanity: 0.9 });
    expect(folded).toEqual({
      hate: 0.7,
      hate_threat: 0.7,
      self_harm_intent: 0.4,
      self_harm: 0.1,
      'self-harm': 0.4,
      profanity: 0.9,
    });
  });

  it('folds the five spec categories by default', () => {
    expect(Object.keys(DEFAULT_SIGNAL_FOLDING).sort()).toEqual(['harassment', 'hate', 'self-harm', 'sexual', 'violence']);
    const folded = foldSignals({ sexual_explicit: 0.6, harassment_insult: 0.5, violence_threat: 0.3 });
    expect(folded).toMatchObject({ sexual: 0.6, harassment: 0.5, violence: 0.3 });
  });

  it('gives no score to a category none of whose signals is present', () => {
    const folded = foldSignals({ profanity: 0.3 });
    expect(Object.keys(folded)).toEqual(['profanity']);
  });

  it('counts a signal named like the category even when the folding does not list it', () => {
    expect(foldSignals({ 'self-harm': 0.8, self_harm: 0.2 })['self-harm']).toBe(0.8);
  });

  it('uses a custom folding', () => {
    const folded = foldSignals({ toxic: 0.4, insult: 0.9 }, { harassment: ['toxic', 'insult'] });
    expect(folded).toEqual({ toxic: 0.4, insult: 0.9, harassment: 0.9 });
  });

  it('reads and writes own properties only', () => {
    const signals = JSON.parse('{"__proto__": 0.9, "hate": 0.1}') as Record<string, number>;
    const folded = foldSignals(signals, { constructor: ['__proto__'] });
    expect(Object.getPrototypeOf(folded)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(folded, '__proto__')).toBe(true);
    expect(folded.constructor).toBe(0.9);
    expect(foldSignals({}, { constructor: ['x'] })).toEqual({});
  });

  it('keeps the default folding immutable', () => {
    expect(Object.isFrozen(DEFAULT_SIGNAL_FOLDING)).toBe(true);
    expect(Object.isFrozen(DEFAULT_SIGNAL_FOLDING.hate)).toBe(true);
  });
});

describe('scoresForDryRun', () => {
  it('folds mockSignals and uses them instead of mockScores', () => {
    const scores = scoresForDryRun({ mockScores: { hate: 0.99 }, mockSignals: { hate_threat: 0.4, brand_new_signal: 0.5 } });
    expect(scores).toEqual({ hate: 0.4, hate_threat: 0.4, brand_new_signal: 0.5 });
  });

  it('uses mockScores as category scores, without folding', () => {
    expect(scoresForDryRun({ mockScores: { hate_threat: 0.9 } })).toEqual({ hate_threat: 0.9 });
  });

  it('gives no scores when neither is given (null counts as not given)', () => {
    expect(scoresForDryRun({})).toEqual({});
    expect(scoresForDryRun({ mockScores: null, mockSignals: null })).toEqual({});
  });

  it('validates what is given, including mockScores that mockSignals overrides', () => {
    expect(failure(() => scoresForDryRun({ mockSignals: { hate: 2 } })).message).toBe('mockSignals.hate must be a number between 0 and 1 (got 2)');
    const e = failure(() => scoresForDryRun({ mockScores: { hate: 'high' }, mockSignals: { hate: 0.1 } }));
    expect([e.code, e.message]).toEqual(['INVALID_SCORES', 'mockScores.hate must be a number between 0 and 1 (got "high")']);
  });

  it('lets a policy threshold a provider sub-signal by name in a dry run', () => {
    const policy = parsePolicyYaml('name: p\ncategories:\n  hate: {threshold: 0.8, action: flag}\n  hate_threat: {threshold: 0.5, action: block}\n');
    const result = evaluate(policy, scoresForDryRun({ mockSignals: { hate: 0.1, hate_threat: 0.6 } }));
    expect(result.categories).toEqual([
      { category: 'hate', score: 0.6, threshold: 0.8, triggered: false },
      { category: 'hate_threat', score: 0.6, threshold: 0.5, triggered: true },
    ]);
    expect(result.action).toBe('block');
  });
});
