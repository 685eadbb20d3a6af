import { caseLabel, loadPolicyCases } from './policy-cases.loader';
import { UsageError } from './usage.error';

describe('loadPolicyCases', () => {
  it('reads a YAML list of text, score and signal cases', () => {
    const cases = loadPolicyCases(`
- text: have a nice day
  expect: allow
- name: hateful score
  scores: { hate: 0.95 }
  expect: block
- signals: { violence_threat: 0.9 }
  expect: flag
- text: bonjour
  language: fr
  expect: allow
`);
    expect(cases).toEqual([
      { text: 'have a nice day', expect: 'allow' },
      { name: 'hateful score', scores: { hate: 0.95 }, expect: 'block' },
      { signals: { violence_threat: 0.9 }, expect: 'flag' },
      { text: 'bonjour', language: 'fr', expect: 'allow' },
    ]);
    expect(cases.map(caseLabel)).toEqual(['text "have a nice day"', 'hateful score', 'signals violence_threat=0.9', 'text "bonjour"']);
  });

  it('also takes {cases: [...]}', () => {
    expect(loadPolicyCases('cases:\n  - scores: {hate: 0.1}\n    expect: allow\n')).toEqual([{ scores: { hate: 0.1 }, expect: 'allow' }]);
  });

  it('refuses a case that could pass for the wrong reason, naming it', () => {
    const bad: [string, string][] = [
      ['- text: hi\n  expected: allow\n', 'cases: case 1: unknown key expected (keys: name, text, language, scores, signals, expect)'],
      ['- text: hi\n  expect: maybe\n', 'cases: case 1: expect must be one of allow, warn, flag, block'],
      ['- expect: allow\n', 'cases: case 1: give exactly one of text, scores, signals'],
      ['- text: hi\n  scores: {hate: 1}\n  expect: block\n', 'cases: case 1: give exactly one of text, scores, signals'],
      ['- scores: {hate: high}\n  expect: block\n', 'cases: case 1: scores.hate must be a number'],
      ['- scores: [1]\n  expect: block\n', 'cases: case 1: scores must be a mapping of name to number'],
      ['- scores: {hate: 1}\n  language: fr\n  expect: block\n', 'cases: case 1: language goes with text'],
      ['- text: ""\n  expect: allow\n', 'cases: case 1: text must be a non-empty string'],
      ['- text: ok\n  expect: allow\n- 3\n', 'cases: case 2 must be a mapping'],
      ['[]', 'cases must be a non-empty YAML list of cases'],
      ['text: hi', 'cases must be a non-empty YAML list of cases'],
    ];
    for (const [yaml, message] of bad) expect(() => loadPolicyCases(yaml)).toThrow(new UsageError(message));
    expect(() => loadPolicyCases('- [unclosed', 'c.yaml')).toThrow(/^c\.yaml is not valid YAML/);
  });
});
