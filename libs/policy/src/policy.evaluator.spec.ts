import { Action } from '@cds/events';
import { evaluate } from './policy.evaluator';
import { ParsedPolicy, Rule } from './policy.types';
import { parsePolicyYaml } from './policy.yaml-parser';

const policyOf = (...rules: Rule[]): ParsedPolicy => ({ name: 'test', categories: {}, rules });
const rule = (category: string, threshold: number, action: Action, provider?: string): Rule =>
  provider === undefined ? { category, threshold, action } : { category, threshold, action, provider };

describe('evaluate', () => {
  it('triggers a category when the score equals the threshold, not just below it', () => {
    const policy = policyOf(rule('hate', 0.5, 'block'));
    expect(evaluate(policy, { hate: 0.5 })).toEqual({
      categories: [{ category: 'hate', score: 0.5, threshold: 0.5, triggered: true }],
      flagged: true,
      safe: false,
      action: 'block',
    });
    expect(evaluate(policy, { hate: 0.4999 })).toEqual({
      categories: [{ category: 'hate', score: 0.4999, threshold: 0.5, triggered: false }],
      flagged: false,
      safe: true,
      action: 'allow',
    });
  });

  it('answers allow, safe and not flagged when nothing triggers', () => {
    const result = evaluate(policyOf(rule('hate', 0.5, 'block'), rule('sexual', 0.7, 'flag')), { hate: 0.1, sexual: 0.2 });
    expect([result.action, result.safe, result.flagged]).toEqual(['allow', true, false]);
  });

  it.each<[Action, Action, Action]>([
    ['warn', 'allow', 'warn'],
    ['warn', 'flag', 'flag'],
    ['flag', 'warn', 'flag'],
    ['block', 'warn', 'block'],
    ['flag', 'block', 'block'],
    ['allow', 'allow', 'allow'],
  ])('takes the most severe action among triggered categories (%s + %s -> %s)', (first, second, expected) => {
    const result = evaluate(policyOf(rule('a', 0.5, first), rule('b', 0.5, second)), { a: 0.9, b: 0.9 });
    expect(result.action).toBe(expected);
  });

  it('ignores the actions of categories that did not trigger', () => {
    const result = evaluate(policyOf(rule('hate', 0.9, 'block'), rule('sexual', 0.5, 'warn')), { hate: 0.89, sexual: 0.6 });
    expect(result.action).toBe('warn');
    expect(result.categories.map((c) => c.triggered)).toEqual([false, true]);
  });

  it('marks a decision flagged even when the only triggered category allows (flagged = any triggered)', () => {
    const result = evaluate(policyOf(rule('profanity', 0.3, 'allow')), { profanity: 0.8 });
    expect(result).toMatchObject({ flagged: true, safe: false, action: 'allow' });
  });

  it('scores a category without a score as 0, in the policy order, ignoring extra scores', () => {
    const result = evaluate(policyOf(rule('violence', 0.5, 'block'), rule('hate', 0, 'warn'), rule('sexual', 0.5, 'flag')), {
      sexual: 0.6,
      unrelated: 1,
    });
    expect(result.categories).toEqual([
      { category: 'violence', score: 0, threshold: 0.5, triggered: false },
      { category: 'hate', score: 0, threshold: 0, triggered: true },
      { category: 'sexual', score: 0.6, threshold: 0.5, triggered: true },
    ]);
    expect(result.action).toBe('flag');
  });

  it('reads only own scores: a "constructor" category is not Object.prototype.constructor', () => {
    const result = evaluate(policyOf(rule('constructor', 0.5, 'block')), {});
    expect(result.categories[0]).toEqual({ category: 'constructor', score: 0, threshold: 0.5, triggered: false });
  });

  it('rounds shown scores to 4 decimals but compares the exact score', () => {
    const policy = policyOf(rule('a', 0.5, 'block'), rule('b', 0.5, 'block'), rule('c', 0.5, 'block'));
    const result = evaluate(policy, { a: 0.123456, b: 0.49996, c: 0.500001 });
    // 0.49996 would show as 0.5 and look triggered; the exact score is shown instead.
    expect(result.categories.map((c) => [c.score, c.triggered])).toEqual([
      [0.1235, false],
      [0.49996, false],
      [0.5, true],
    ]);
  });

  it('clamps scores outside [0, 1] and treats a non-number as missing', () => {
    const policy = policyOf(rule('a', 1, 'block'), rule('b', 0.1, 'flag'), rule('c', 0.1, 'flag'));
    const result = evaluate(policy, { a: 7, b: -3, c: Number.NaN });
    expect(result.categories.map((c) => [c.score, c.triggered])).toEqual([
      [1, true],
      [0, false],
      [0, false],
    ]);
  });

  describe('rules for one category with different providers', () => {
    const policy = policyOf(
      rule('hate', 0.3, 'block', 'openai'),
      rule('hate', 0.6, 'flag'),
      rule('hate', 0.9, 'warn', 'local'),
      rule('sexual', 0.5, 'block', 'openai'),
    );

    it('uses the rule naming the decision provider', () => {
      expect(evaluate(policy, { hate: 0.4 }, 'openai').categories[0]).toEqual({ category: 'hate', score: 0.4, threshold: 0.3, triggered: true });
      expect(evaluate(policy, { hate: 0.7 }, 'local').categories[0]).toMatchObject({ threshold: 0.9, triggered: false });
    });

    it('falls back to the rule without a provider, also when no provider is given', () => {
      expect(evaluate(policy, { hate: 0.7 }, 'acme').categories[0]).toMatchObject({ threshold: 0.6, triggered: true });
      expect(evaluate(policy, { hate: 0.7 }).categories[0]).toMatchObject({ threshold: 0.6, triggered: true });
    });

    it('never skips a category: with no matching or provider-less rule, the first rule applies', () => {
      const result = evaluate(policy, { sexual: 0.8 }, 'local');
      expect(result.categories.map((c) => c.category)).toEqual(['hate', 'sexual']);
      expect(result.categories[1]).toEqual({ category: 'sexual', score: 0.8, threshold: 0.5, triggered: true });
      expect(result.action).toBe('block');
    });
  });

  it('evaluates a parsed policy of either shape the same way', () => {
    const a = parsePolicyYaml('name: a\ncategories:\n  hate: {threshold: 0.5, action: block}\n  sexual: {threshold: 0.8, action: warn}\n');
    const b = parsePolicyYaml(
      'name: b\nversion: 1\nrules:\n  - {category: hate, threshold: 0.5, action: block}\n  - {category: sexual, threshold: 0.8, action: warn}\n',
    );
    const scores = { hate: 0.2, sexual: 0.85 };
    expect(evaluate(a, scores)).toEqual(evaluate(b, scores));
    expect(evaluate(a, scores).action).toBe('warn');
  });
});
