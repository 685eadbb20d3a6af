import { domainFailure } from '@cds/testing';
import { readFileSync } from 'node:fs';
import { parsePolicyYaml } from './policy.yaml-parser';

/** Lines of YAML; line n of the document is lines[n - 1]. */
const yaml = (...lines: string[]) => lines.join('\n');

const failure = domainFailure;

const invalidPolicy = (source: string) => {
  const e = failure(() => parsePolicyYaml(source));
  expect(e.kind).toBe('invalid');
  expect(e.code).toBe('INVALID_POLICY');
  return e.message;
};

describe('parsePolicyYaml: shape (a), a categories mapping', () => {
  it('normalizes categories into rules in document order', () => {
    const policy = parsePolicyYaml(
      yaml(
        'name: Community standard',
        'categories:',
        '  violence: {threshold: 0.8, action: block}',
        '  hate:',
        '    threshold: .5',
        '    action: flag',
        '  self-harm:',
        '    threshold: 1',
        '    action: warn',
      ),
    );
    expect(policy).toStrictEqual({
      name: 'Community standard',
      categories: {
        violence: { threshold: 0.8, action: 'block' },
        hate: { threshold: 0.5, action: 'flag' },
        'self-harm': { threshold: 1, action: 'warn' },
      },
      rules: [
        { category: 'violence', threshold: 0.8, action: 'block' },
        { category: 'hate', threshold: 0.5, action: 'flag' },
        { category: 'self-harm', threshold: 1, action: 'warn' },
      ],
    });
    expect(Object.keys(policy.categories)).toEqual(['violence', 'hate', 'self-harm']);
  });

  it('accepts description, version (kept as written) and an optional provider', () => {
    const policy = parsePolicyYaml(
      yaml('name: p', 'version: 1.0', 'description: "Blocks threats"', 'categories:', '  hate_threat: {threshold: 5e-1, action: allow, provider: local}'),
    );
    expect(policy.version).toBe('1.0');
    expect(policy.description).toBe('Blocks threats');
    expect(policy.rules).toEqual([{ category: 'hate_threat', threshold: 0.5, action: 'allow', provider: 'local' }]);
    expect(policy.categories.hate_threat).toEqual({ threshold: 0.5, action: 'allow', provider: 'local' });
  });

  it('accepts the boundary thresholds 0 and 1 and normalizes -0 to 0', () => {
    const policy = parsePolicyYaml(yaml('name: p', 'categories:', '  a: {threshold: -0, action: warn}', '  b: {threshold: 1.0, action: warn}'));
    expect(Object.is(policy.rules[0].threshold, 0)).toBe(true);
    expect(policy.rules[1].threshold).toBe(1);
  });

  it('accepts JSON, which is YAML', () => {
    const policy = parsePolicyYaml('{"name": "p", "categories": {"sexual": {"threshold": 0.7, "action": "block"}}}');
    expect(policy.rules).toEqual([{ category: 'sexual', threshold: 0.7, action: 'block' }]);
  });

  it('allows any well-formed category name, including "constructor"', () => {
    const policy = parsePolicyYaml(yaml('name: p', 'categories:', '  constructor: {threshold: 0.5, action: flag}', '  x-9_y: {threshold: 0.5, action: flag}'));
    expect(Object.prototype.hasOwnProperty.call(policy.categories, 'constructor')).toBe(true);
    expect(policy.categories.constructor).toEqual({ threshold: 0.5, action: 'flag' });
    expect(policy.rules.map((r) => r.category)).toEqual(['constructor', 'x-9_y']);
  });
});

describe('parsePolicyYaml: shape (b), a rules list', () => {
  it('normalizes rules with and without provider', () => {
    const policy = parsePolicyYaml(
      yaml(
        'name: strict',
        'version: "2"',
        'rules:',
        '  - category: hate',
        '    threshold: 0.4',
        '    provider: openai',
        '    action: block',
        '  - {category: sexual, threshold: 0.9, action: flag}',
      ),
    );
    expect(policy).toStrictEqual({
      name: 'strict',
      version: '2',
      categories: {
        hate: { threshold: 0.4, action: 'block', provider: 'openai' },
        sexual: { threshold: 0.9, action: 'flag' },
      },
      rules: [
        { category: 'hate', threshold: 0.4, action: 'block', provider: 'openai' },
        { category: 'sexual', threshold: 0.9, action: 'flag' },
      ],
    });
  });

  it('allows several rules for one category when their providers differ; categories shows the provider-less one', () => {
    const policy = parsePolicyYaml(
      yaml(
        'name: p',
        'rules:',
        '  - {category: hate, threshold: 0.3, provider: openai, action: block}',
        '  - {category: hate, threshold: 0.6, action: flag}',
        '  - {category: hate, threshold: 0.9, provider: local, action: warn}',
      ),
    );
    expect(policy.rules).toHaveLength(3);
    expect(policy.categories).toEqual({ hate: { threshold: 0.6, action: 'flag' } });
  });

  it('shows the first rule in categories when every rule of a category names a provider', () => {
    const policy = parsePolicyYaml(
      yaml(
        'name: p',
        'rules:',
        '  - {category: hate, threshold: 0.3, provider: openai, action: block}',
        '  - {category: hate, threshold: 0.9, provider: local, action: warn}',
      ),
    );
    expect(policy.categories).toEqual({ hate: { threshold: 0.3, action: 'block', provider: 'openai' } });
  });

  it('refuses two rules for the same category and provider, naming both lines', () => {
    const source = yaml(
      'name: p',
      'rules:',
      '  - {category: hate, threshold: 0.3, provider: openai, action: block}',
      '  - {category: sexual, threshold: 0.3, action: block}',
      '  - {category: hate, threshold: 0.5, provider: openai, action: flag}',
    );
    expect(invalidPolicy(source)).toBe('line 5: duplicate rule for category "hate" for provider "openai" (first defined on line 3)');
  });

  it('refuses two provider-less rules for the same category', () => {
    const source = yaml(
      'name: p',
      'rules:',
      '  - category: hate',
      '    threshold: 0.3',
      '    action: block',
      '  - category: hate',
      '    threshold: 0.5',
      '    action: flag',
    );
    expect(invalidPolicy(source)).toBe('line 6: duplicate rule for category "hate" without a provider (first defined on line 3)');
  });
});

describe('parsePolicyYaml: invalid rules name the line and the reason', () => {
  const withThreshold = (value: string) => yaml('name: p', 'categories:', '  hate:', `    threshold: ${value}`, '    action: block');

  it.each([
    ['high', 'line 4: threshold must be a number between 0 and 1 (got "high")'],
    ['1.5', 'line 4: threshold must be a number between 0 and 1 (got 1.5)'],
    ['-0.1', 'line 4: threshold must be a number between 0 and 1 (got -0.1)'],
    ['.nan', 'line 4: threshold must be a number between 0 and 1 (got .nan)'],
    ['.inf', 'line 4: threshold must be a number between 0 and 1 (got .inf)'],
    ['true', 'line 4: threshold must be a number between 0 and 1 (got true)'],
    ['"0.5"', 'line 4: threshold must be a number between 0 and 1 (got "0.5"; write the number without quotes)'],
    ['', 'line 4: threshold must be a number between 0 and 1 (got nothing)'],
    ['[0.5]', 'line 4: threshold must be a number between 0 and 1 (got a list)'],
  ])('threshold %j', (value, message) => {
    expect(invalidPolicy(withThreshold(value))).toBe(message);
  });

  it('names the rule line of an invalid threshold in shape (b)', () => {
    const source = yaml('name: p', 'version: 1', 'rules:', '  - category: hate', '    provider: local', '    threshold: 2', '    action: block');
    expect(invalidPolicy(source)).toBe('line 6: threshold must be a number between 0 and 1 (got 2)');
  });

  it.each([
    ['Block', 'line 4: action must be one of allow, warn, flag, block (got "Block")'],
    ['deny', 'line 4: action must be one of allow, warn, flag, block (got "deny")'],
    ['', 'line 4: action must be one of allow, warn, flag, block (got nothing)'],
  ])('action %j', (value, message) => {
    expect(invalidPolicy(yaml('name: p', 'categories:', '  hate:', `    action: ${value}`, '    threshold: 0.5'))).toBe(message);
  });

  it('reports a missing threshold or action at the line of the category or rule', () => {
    expect(invalidPolicy(yaml('name: p', 'categories:', '  hate: {threshold: 0.5, action: block}', '  sexual:', '    action: block'))).toBe(
      'line 5: category "sexual" is missing "threshold"',
    );
    expect(invalidPolicy(yaml('name: p', 'rules:', '  - category: hate', '    threshold: 0.5'))).toBe('line 3: rule 1 is missing "action"');
    expect(invalidPolicy(yaml('name: p', 'rules:', '  - {category: hate, threshold: 0.5, action: flag}', '  - {threshold: 0.5, action: flag}'))).toBe(
      'line 4: rule 2 is missing "category"',
    );
  });

  it('refuses unknown keys at every level, suggesting the closest allowed key', () => {
    expect(invalidPolicy(yaml('nmae: p', 'categories: {hate: {threshold: 0.5, action: block}}'))).toBe(
      'line 1: unknown key "nmae" in policy (allowed: name, version, description, provider, fallback, categories, rules); did you mean "name"?',
    );
    expect(invalidPolicy(yaml('name: p', 'categories:', '  hate:', '    action: block', '    treshold: 0.5'))).toBe(
      'line 5: unknown key "treshold" in category "hate" (allowed: threshold, action, provider); did you mean "threshold"?',
    );
    expect(invalidPolicy(yaml('name: p', 'rules:', '  - category: hate', '    threshold: 0.5', '    action: block', '    severity: high'))).toBe(
      'line 6: unknown key "severity" in rule 1 (allowed: category, threshold, action, provider)',
    );
  });

  it.each([
    ['Hate', 'line 3: category must be a name of lowercase letters, digits, "_" or "-", starting with a letter, at most 64 characters (got "Hate")'],
    ['1abc', 'line 3: category must be a name of lowercase letters, digits, "_" or "-", starting with a letter, at most 64 characters (got "1abc")'],
    ['12', 'line 3: category must be a name of lowercase letters, digits, "_" or "-", starting with a letter, at most 64 characters (got 12)'],
    ['"a b"', 'line 3: category must be a name of lowercase letters, digits, "_" or "-", starting with a letter, at most 64 characters (got "a b")'],
    [
      `a${'b'.repeat(64)}`,
      `line 3: category must be a name of lowercase letters, digits, "_" or "-", starting with a letter, at most 64 characters (got "a${'b'.repeat(39)}...")`,
    ],
  ])('category name %j', (category, message) => {
    expect(invalidPolicy(yaml('name: p', 'categories:', `  ${category}: {threshold: 0.5, action: block}`))).toBe(message);
  });

  it('accepts a 64-character category name', () => {
    const category = `a${'b'.repeat(63)}`;
    expect(parsePolicyYaml(yaml('name: p', 'categories:', `  ${category}: {threshold: 0.5, action: block}`)).rules[0].category).toBe(category);
  });

  it('checks category and provider names in shape (b)', () => {
    expect(invalidPolicy(yaml('name: p', 'rules:', '  - category: HATE', '    threshold: 0.5', '    action: block'))).toMatch(
      /^line 3: category must be a name/,
    );
    expect(invalidPolicy(yaml('name: p', 'rules:', '  - category: hate', '    threshold: 0.5', '    provider: OpenAI', '    action: block'))).toMatch(
      /^line 5: provider must be a name of .* \(got "OpenAI"\)$/,
    );
  });

  it('requires a name, as non-empty text', () => {
    expect(invalidPolicy(yaml('# policy', 'categories:', '  hate: {threshold: 0.5, action: block}'))).toBe('line 2: policy is missing "name"');
    expect(invalidPolicy(yaml('name:', 'categories: {hate: {threshold: 0.5, action: block}}'))).toBe('line 1: name must be non-empty text (got nothing)');
    expect(invalidPolicy(yaml('name: "  "', 'categories: {hate: {threshold: 0.5, action: block}}'))).toBe('line 1: name must be non-empty text (got "  ")');
    expect(invalidPolicy(yaml('categories: {hate: {threshold: 0.5, action: block}}', 'name: [a]'))).toBe('line 2: name must be non-empty text (got a list)');
    expect(invalidPolicy(yaml(`name: ${'n'.repeat(201)}`, 'categories: {hate: {threshold: 0.5, action: block}}'))).toBe(
      'line 1: name must be at most 200 characters (got 201)',
    );
  });

  it('bounds description and version', () => {
    const cats = 'categories: {hate: {threshold: 0.5, action: block}}';
    expect(invalidPolicy(yaml('name: p', `description: ${'d'.repeat(2001)}`, cats))).toBe('line 2: description must be at most 2000 characters (got 2001)');
    expect(invalidPolicy(yaml('name: p', 'version: {major: 1}', cats))).toBe('line 2: version must be non-empty text (got a mapping)');
  });

  it('requires exactly one of categories and rules', () => {
    expect(invalidPolicy(yaml('name: p', 'version: 1'))).toBe(
      'line 1: policy needs "categories" (a mapping of category -> threshold and action) or "rules" (a list of rules)',
    );
    expect(
      invalidPolicy(
        yaml('name: p', 'categories:', '  hate: {threshold: 0.5, action: block}', 'rules:', '  - {category: sexual, threshold: 0.5, action: block}'),
      ),
    ).toBe('line 4: use either "categories" or "rules", not both ("categories" is on line 2)');
  });

  it('requires categories to be a non-empty mapping and rules a non-empty list', () => {
    expect(invalidPolicy(yaml('name: p', 'categories: {}'))).toBe('line 2: "categories" must name at least one category');
    expect(invalidPolicy(yaml('name: p', 'categories:'))).toBe('line 2: "categories" must be a mapping of category name -> {threshold, action} (got nothing)');
    expect(invalidPolicy(yaml('name: p', 'categories:', '  - hate'))).toBe(
      'line 3: "categories" must be a mapping of category name -> {threshold, action} (got a list)',
    );
    expect(invalidPolicy(yaml('name: p', 'categories:', '  hate: 0.5'))).toBe(
      'line 3: category "hate" must be a mapping with "threshold" and "action" (got 0.5)',
    );
    expect(invalidPolicy(yaml('name: p', 'rules: []'))).toBe('line 2: "rules" must contain at least one rule');
    expect(invalidPolicy(yaml('name: p', 'rules:', '  hate: {threshold: 0.5}'))).toBe(
      'line 3: "rules" must be a list of {category, threshold, action, provider} (got a mapping)',
    );
    expect(invalidPolicy(yaml('name: p', 'rules:', '  - {category: hate, threshold: 0.5, action: flag}', '  - hate'))).toBe(
      'line 4: rule 2 must be a mapping with "category", "threshold" and "action" (got "hate")',
    );
  });

  it('allows 256 rules or categories and refuses the 257th at its line', () => {
    const categories = (n: number) => Array.from({ length: n }, (_, i) => `  c${i}: {threshold: 0.5, action: flag}`);
    expect(parsePolicyYaml(yaml('name: p', 'categories:', ...categories(256))).rules).toHaveLength(256);
    expect(invalidPolicy(yaml('name: p', 'categories:', ...categories(300)))).toBe('line 259: too many categories: at most 256 are allowed (got 300)');

    const rules = (n: number) => Array.from({ length: n }, (_, i) => `  - {category: c${i}, threshold: 0.5, action: flag}`);
    expect(parsePolicyYaml(yaml('name: p', 'rules:', ...rules(256))).rules).toHaveLength(256);
    expect(invalidPolicy(yaml('name: p', 'rules:', ...rules(257)))).toBe('line 259: too many rules: at most 256 are allowed (got 257)');
  });

  it('refuses a root that is not a mapping, and an empty policy', () => {
    expect(invalidPolicy(yaml('# comment', '- name: p'))).toBe('line 2: policy must be a mapping with "name" and "categories" or "rules" (got a list)');
    expect(invalidPolicy('just text')).toBe('line 1: policy must be a mapping with "name" and "categories" or "rules" (got "just text")');
    expect(invalidPolicy('')).toBe('line 1: policy is empty; expected a mapping with "name" and "categories" or "rules"');
    expect(invalidPolicy(yaml('# nothing here', ''))).toBe('line 1: policy is empty; expected a mapping with "name" and "categories" or "rules"');
    expect(invalidPolicy('~')).toMatch(/^line 1: policy is empty/);
  });

  it('puts the location in details', () => {
    const e = failure(() => parsePolicyYaml(yaml('name: p', 'categories:', '  hate: {threshold: high, action: block}')));
    expect(e.details).toBe('line 3, column 21');
  });

  it('counts lines the same with CRLF line ends and a byte order mark', () => {
    const source = '\ufeffname: p\r\ncategories:\r\n  hate:\r\n    threshold: high\r\n    action: block\r\n';
    expect(invalidPolicy(source)).toBe('line 4: threshold must be a number between 0 and 1 (got "high")');
  });
});

describe('POLICY_GRAMMAR.md', () => {
  it('shows examples that parse', () => {
    const doc = readFileSync(`${__dirname}/../POLICY_GRAMMAR.md`, 'utf8');
    const examples = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(examples).toHaveLength(2);
    expect(examples.map((e) => parsePolicyYaml(e).rules.length)).toEqual([3, 3]);
  });
});

describe('parsePolicyYaml: the policy provider and its fallback list', () => {
  it('keeps a top-level provider and fallback list, and [] as "no fallback"', () => {
    const p = parsePolicyYaml(yaml('name: P', 'provider: openai', 'fallback: [azure, local]', 'categories:', '  hate: {threshold: 0.5, action: block}'));
    expect(p).toMatchObject({ provider: 'openai', fallback: ['azure', 'local'] });
    expect(parsePolicyYaml(yaml('name: P', 'fallback: []', 'rules:', '  - {category: hate, threshold: 0.5, action: block}')).fallback).toEqual([]);
    expect(parsePolicyYaml(yaml('name: P', 'rules:', '  - {category: hate, threshold: 0.5, action: block}'))).not.toHaveProperty('fallback');
  });

  it('refuses a fallback that is not a list of names, repeats one, or is too long', () => {
    expect(invalidPolicy(yaml('name: P', 'fallback: local', 'categories:', '  hate: {threshold: 0.5, action: block}'))).toBe(
      'line 2: fallback must be a list of provider names (got "local")',
    );
    expect(invalidPolicy(yaml('name: P', 'fallback: [local, local]', 'categories:', '  hate: {threshold: 0.5, action: block}'))).toBe(
      'line 2: fallback names provider "local" twice',
    );
    expect(invalidPolicy(yaml('name: P', 'fallback: [Local]', 'categories:', '  hate: {threshold: 0.5, action: block}'))).toMatch(
      /^line 2: fallback provider must be a name/,
    );
    const nine = Array.from({ length: 9 }, (_, i) => `p${i}`).join(', ');
    expect(invalidPolicy(yaml('name: P', `fallback: [${nine}]`, 'categories:', '  hate: {threshold: 0.5, action: block}'))).toBe(
      'line 2: fallback lists at most 8 providers (got 9)',
    );
    expect(invalidPolicy(yaml('name: P', 'provider: [a]', 'categories:', '  hate: {threshold: 0.5, action: block}'))).toMatch(
      /^line 2: provider must be a name/,
    );
  });
});
