import { AZURE_SEVERITY_SCORES, azureSignalsOf, severityScore } from './azure.signals';
import { classifyGoogleError, GOOGLE_LIKELIHOOD_SCORES, googleVisionSignalsOf } from './google-vision.signals';
import { llamaGuardSignalsOf, parseVerdict, unsafeProbability } from './llamaguard.signals';
import { openAiSignalsOf } from './openai.signals';
import { ProviderCallError } from './provider-call.error';
import { signalNameOf } from './response-shape';

const reasonOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof ProviderCallError ? err.reason : `not a ProviderCallError: ${String(err)}`;
  }
  return 'no error';
};

describe('signal names', () => {
  it.each([
    ['harassment/threatening', 'harassment_threatening'],
    ['self-harm/intent', 'self_harm_intent'],
    ['SelfHarm', 'self_harm'],
    ['Violence', 'violence'],
    ['__proto__', 'proto'],
    ['9lives', undefined],
    ['///', undefined],
  ])('%s → %s', (category, name) => {
    expect(signalNameOf(category)).toBe(name);
  });
});

describe('openai mapping', () => {
  const answer = (scores: Record<string, unknown>, applied?: Record<string, string[]>) => ({
    results: [{ flagged: false, categories: {}, category_scores: scores, ...(applied ? { category_applied_input_types: applied } : {}) }],
  });

  it('renames categories and keeps those applied to the input kind', () => {
    const json = answer(
      { 'hate/threatening': 0.4, harassment: 0.2, violence: 0.1 },
      { 'hate/threatening': ['text'], harassment: ['text'], violence: ['text', 'image'] },
    );
    expect(openAiSignalsOf(json, 'text')).toEqual({ hate_threatening: 0.4, harassment: 0.2, violence: 0.1 });
    expect(openAiSignalsOf(json, 'image')).toEqual({ violence: 0.1 });
  });

  it('keeps every category of an answer without applied input types', () => {
    expect(openAiSignalsOf(answer({ 'sexual/minors': 0.01 }), 'image')).toEqual({ sexual_minors: 0.01 });
  });

  it.each([
    [{ results: [] }],
    [{ results: [{ category_scores: {} }] }],
    [answer({ sexual: 1.5 })],
    [answer({ sexual: Number.NaN })],
    [answer({ sexual: 0.1 }, 'text' as unknown as Record<string, string[]>)],
  ])('refuses %j as bad_response', (json) => {
    expect(reasonOf(() => openAiSignalsOf(json, 'text'))).toBe('bad_response');
  });
});

describe('azure mapping', () => {
  it('maps the four severity levels so medium and up meet the default thresholds', () => {
    expect([0, 2, 4, 6].map(severityScore)).toEqual([0, 0.4, 0.8, 1]);
    expect([1, 3, 5, 7].map(severityScore)).toEqual([0.2, 0.6, 0.9, 1]);
    expect(Object.keys(AZURE_SEVERITY_SCORES)).toHaveLength(8);
    for (const bad of [-1, 8, 2.5, '2', null]) expect(reasonOf(() => severityScore(bad))).toBe('bad_response');
  });

  it('reads blocklist matches of the configured lists', () => {
    const json = {
      categoriesAnalysis: [{ category: 'Hate', severity: 0 }],
      blocklistsMatch: [{ blocklistName: 'b', blocklistItemId: '1', blocklistItemText: 't' }],
    };
    expect(azureSignalsOf(json, ['a', 'b'])).toEqual({ hate: 0, blocklist: 1, blocklist_a: 0, blocklist_b: 1 });
    expect(azureSignalsOf({ categoriesAnalysis: [{ category: 'Hate', severity: 2 }] }, ['a'])).toEqual({ hate: 0.4, blocklist: 0, blocklist_a: 0 });
    expect(reasonOf(() => azureSignalsOf({ categoriesAnalysis: [] }, []))).toBe('bad_response');
    expect(reasonOf(() => azureSignalsOf({ categoriesAnalysis: [{ category: 'Hate', severity: 0 }], blocklistsMatch: [{}] }, ['a']))).toBe('bad_response');
  });
});

describe('llama guard mapping', () => {
  it.each([
    ['safe', { unsafe: false, codes: [] }],
    ['\n\nsafe', { unsafe: false, codes: [] }],
    ['unsafe\nS1,S10', { unsafe: true, codes: ['S1', 'S10'] }],
    ['Unsafe\ns11, s12 S12', { unsafe: true, codes: ['S11', 'S12'] }],
    ['unsafe\nS1,S99', { unsafe: true, codes: ['S1'] }],
    ['unsafe', { unsafe: true, codes: [] }],
  ])('reads %j', (content, verdict) => {
    expect(parseVerdict(content)).toEqual(verdict);
  });

  it('refuses an answer that is not a verdict', () => {
    for (const content of ['', 'maybe', 'The content is safe']) expect(reasonOf(() => parseVerdict(content))).toBe('bad_response');
  });

  it('takes P(unsafe) from the first word token, normalised over safe and unsafe', () => {
    const lp = (token: string, logprob: number, top: [string, number][]) => ({ token, logprob, top_logprobs: top.map(([t, l]) => ({ token: t, logprob: l })) });
    expect(
      unsafeProbability({
        content: [
          lp('unsafe', Math.log(0.6), [
            ['unsafe', Math.log(0.6)],
            ['safe', Math.log(0.2)],
            ['I', Math.log(0.2)],
          ]),
        ],
      }),
    ).toBeCloseTo(0.75, 6);
    expect(
      unsafeProbability({
        content: [
          lp('\n\n', 0, []),
          lp('Ġsafe', Math.log(0.9), [
            ['Ġsafe', Math.log(0.9)],
            ['Ġunsafe', Math.log(0.1)],
          ]),
        ],
      }),
    ).toBeCloseTo(0.1, 6);
    // Only the chosen token, no alternatives: all of the mass on it.
    expect(unsafeProbability({ content: [lp('unsafe', -0.01, [])] })).toBe(1);
    expect(unsafeProbability({ content: [lp('un', -0.1, [['un', -0.1]])] })).toBeUndefined();
    expect(unsafeProbability(null)).toBeUndefined();
    expect(unsafeProbability({ content: 'x' })).toBeUndefined();
  });

  it('scores the named hazards and no others', () => {
    const signals = llamaGuardSignalsOf({ choices: [{ message: { content: 'unsafe\nS4' } }] });
    expect(signals).toMatchObject({ unsafe: 1, s4_child_sexual_exploitation: 1, s12_sexual_content: 0 });
    expect(reasonOf(() => llamaGuardSignalsOf({ choices: [] }))).toBe('bad_response');
  });
});

describe('google vision mapping', () => {
  it('maps the likelihoods, with no signal for UNKNOWN', () => {
    expect(GOOGLE_LIKELIHOOD_SCORES).toEqual({ VERY_UNLIKELY: 0, UNLIKELY: 0.2, POSSIBLE: 0.5, LIKELY: 0.8, VERY_LIKELY: 1 });
    const json = {
      responses: [{ safeSearchAnnotation: { adult: 'VERY_LIKELY', racy: 'UNKNOWN', violence: 'LIKELY', medical: 'POSSIBLE', spoof: 'UNLIKELY' } }],
    };
    expect(googleVisionSignalsOf(json)).toEqual({ adult: 1, violence: 0.8, medical: 0.5, spoof: 0.2 });
    expect(reasonOf(() => googleVisionSignalsOf({ responses: [{ safeSearchAnnotation: { adult: 'constructor' } }] }))).toBe('bad_response');
  });

  it('reads item errors by their google.rpc code', () => {
    const item = (code: number) => () => googleVisionSignalsOf({ responses: [{ error: { code, message: 'm' } }] });
    expect(reasonOf(item(3))).toBe('bad_request');
    expect(reasonOf(item(7))).toBe('unauthorized');
    expect(reasonOf(item(14))).toBe('provider_error');
  });

  it('reads a 400 about the key as unauthorized, other 400s by status', () => {
    expect(classifyGoogleError(400, { error: { code: 400, details: [{ reason: 'API_KEY_INVALID' }] } })).toBe('unauthorized');
    expect(classifyGoogleError(400, { error: { code: 400, message: 'Bad image' } })).toBeUndefined();
    expect(classifyGoogleError(500, undefined)).toBeUndefined();
  });
});
