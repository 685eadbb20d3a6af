import { domainFailure } from '@cds/testing';
import { validateScores } from './score-map.validator';

const failure = domainFailure;

const refused = (input: unknown) => {
  const e = failure(() => validateScores(input, 'mockScores'));
  expect([e.kind, e.code]).toEqual(['invalid', 'INVALID_SCORES']);
  return e.message;
};

describe('validateScores', () => {
  it('returns a copy of a valid map, bounds included', () => {
    const input = { hate: 0, 'self-harm': 1, hate_threat: 0.25 };
    const out = validateScores(input);
    expect(out).toEqual(input);
    expect(out).not.toBe(input);
    expect(Object.is(validateScores({ a: -0 }).a, 0)).toBe(true);
  });

  it.each([
    [[0.5], 'mockScores must be an object of name -> number between 0 and 1 (got a list)'],
    [null, 'mockScores must be an object of name -> number between 0 and 1 (got null)'],
    ['hate', 'mockScores must be an object of name -> number between 0 and 1 (got "hate")'],
    [new Map([['hate', 0.5]]), 'mockScores must be an object of name -> number between 0 and 1 (got an object)'],
  ])('refuses %p as a whole', (input, message) => {
    expect(refused(input)).toBe(message);
  });

  it.each([
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [-0.01, '-0.01'],
    [1.01, '1.01'],
    ['0.5', '"0.5"'],
    [null, 'null'],
    [true, 'boolean'],
  ])('refuses the score %p', (value, shown) => {
    expect(refused({ hate: value })).toBe(`mockScores.hate must be a number between 0 and 1 (got ${shown})`);
  });

  it.each(['Hate', '', '1x', 'a b', `a${'b'.repeat(64)}`])('refuses the name %j', (name) => {
    expect(refused({ [name]: 0.5 })).toMatch(/^mockScores: ".*" is not a valid name/);
  });

  it('refuses an own __proto__ key, as JSON.parse makes one', () => {
    expect(refused(JSON.parse('{"__proto__": 0.5}'))).toMatch(/^mockScores: "__proto__" is not a valid name/);
  });

  it('allows 256 entries and refuses 257', () => {
    const map = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, 0.5]));
    expect(Object.keys(validateScores(map(256)))).toHaveLength(256);
    expect(refused(map(257))).toBe('mockScores has 257 entries; at most 256 are allowed');
  });
});
