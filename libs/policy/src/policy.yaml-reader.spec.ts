import { domainFailure } from '@cds/testing';
import { parsePolicyYaml } from './policy.yaml-parser';
import { readYamlDocument } from './policy.yaml-reader';

const yaml = (...lines: string[]) => lines.join('\n');
const VALID = yaml('name: p', 'categories:', '  hate: {threshold: 0.5, action: block}');

const failure = domainFailure;

const yamlError = (source: unknown) => {
  const e = failure(() => parsePolicyYaml(source as string));
  expect(e.kind).toBe('invalid');
  expect(e.code).toBe('INVALID_POLICY_YAML');
  return e.message;
};

describe('YAML syntax errors', () => {
  it('names the line and js-yaml reason', () => {
    expect(yamlError(yaml('name: p', 'categories:', '  hate: {threshold: 0.5', '  sexual: x'))).toMatch(/^line 4: /);
    expect(yamlError(yaml('name: p', 'categories:', '  hate:', '    threshold: 0.5', '   action: block'))).toBe('line 5: bad indentation of a mapping entry');
    expect(yamlError(yaml('name: p', 'description: "unterminated'))).toBe('line 2: unexpected end of the stream within a double quoted scalar');
  });

  it('refuses duplicate keys, naming both lines, including a duplicate category', () => {
    expect(
      yamlError(
        yaml(
          'name: p',
          'categories:',
          '  hate: {threshold: 0.5, action: block}',
          '  sexual: {threshold: 0.5, action: block}',
          '  hate: {threshold: 0.9, action: warn}',
        ),
      ),
    ).toBe('line 5: duplicate key "hate" (first defined on line 3)');
    expect(yamlError(yaml('name: p', 'name: q', 'categories: {}'))).toBe('line 2: duplicate key "name" (first defined on line 1)');
  });

  it('refuses keys that are lists or mappings', () => {
    expect(yamlError(yaml('name: p', '? [a, b]', ': 1'))).toBe('line 2: mapping keys must be plain text, not a list or a mapping');
  });

  it('refuses input that is not text', () => {
    expect(yamlError(undefined)).toBe('line 1: the policy must be YAML text');
    expect(yamlError({ name: 'p' })).toBe('line 1: the policy must be YAML text');
  });
});

describe('hostile YAML is refused safely', () => {
  it('refuses a policy over 64 KiB with POLICY_TOO_LARGE, naming the line where the limit is passed', () => {
    const padded = (bytes: number) => VALID + '\n#' + 'x'.repeat(bytes - VALID.length - 2);
    expect(parsePolicyYaml(padded(65536)).name).toBe('p');
    const e = failure(() => parsePolicyYaml(padded(65537)));
    expect([e.kind, e.code]).toEqual(['invalid', 'POLICY_TOO_LARGE']);
    expect(e.message).toBe('line 4: policy is larger than 65536 bytes (64 KiB); it is 65537 bytes');
  });

  it('counts UTF-8 bytes, not characters', () => {
    const multiByte = VALID + '\n# ' + 'é'.repeat(33000); // 66 000 bytes in 33 000 characters
    expect(multiByte.length).toBeLessThan(65536);
    expect(failure(() => parsePolicyYaml(multiByte)).code).toBe('POLICY_TOO_LARGE');
  });

  it('refuses a very large input without reading all of it', () => {
    const huge = 'a: ' + 'x'.repeat(50 * 1024 * 1024);
    const e = failure(() => parsePolicyYaml(huge));
    expect(e.code).toBe('POLICY_TOO_LARGE');
    expect(e.message).toMatch(/^line 1: /);
  });

  it('refuses an alias bomb (billion laughs) at the first alias, before expanding anything', () => {
    const bomb = [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
      'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
      'h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]',
      'i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]',
    ].join('\n');
    expect(yamlError(bomb)).toBe('line 1: anchors (&a) are not allowed in a policy');
  });

  it('refuses aliases and anchors, naming the line', () => {
    expect(yamlError(yaml('name: p', 'categories:', '  hate: {threshold: 0.5, action: block}', '  sexual: *x'))).toBe(
      'line 4: aliases (*x) are not allowed in a policy',
    );
    expect(yamlError(yaml('name: p', 'categories:', '  hate: &h {threshold: 0.5, action: block}'))).toBe('line 3: anchors (&h) are not allowed in a policy');
  });

  it.each([
    ['!!js/function "function () { return 1 }"', '!!js/function'],
    ['!foo 0.5', '!foo'],
    ['!!binary aGVsbG8=', '!!binary'],
    ['!!python/object:os.system [ls]', '!!python/object:os.system'],
    ['!!float 0.5', '!!float'],
  ])('refuses the tag in %j', (value, tag) => {
    expect(yamlError(yaml('name: p', 'categories:', '  hate:', `    threshold: ${value}`, '    action: block'))).toBe(
      `line 4: YAML tags (${tag}) are not allowed in a policy`,
    );
  });

  it('refuses a %TAG-directive tag on the root', () => {
    expect(yamlError(yaml('%TAG !e! tag:example.com,2000:', '--- !e!policy', 'name: p'))).toBe('line 2: YAML tags (!e!policy) are not allowed in a policy');
  });

  it('refuses deep nesting, in flow and block style', () => {
    expect(yamlError('a: ' + '['.repeat(30_000) + ']'.repeat(30_000))).toBe('line 1: nesting is too deep (at most 7 levels of lists and mappings)');
    const block = Array.from({ length: 100 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n');
    expect(yamlError(block)).toBe('line 8: nesting is too deep (at most 7 levels of lists and mappings)');
  });

  it('refuses more than one document, naming the line of the second', () => {
    expect(yamlError(yaml(VALID, '---', 'name: q'))).toBe('line 5: only one YAML document is allowed (a second document starts here)');
    expect(yamlError(yaml(VALID, '---', ''))).toBe('line 4: only one YAML document is allowed (a second document starts here)');
    expect(parsePolicyYaml(yaml('---', VALID, '...')).name).toBe('p');
  });

  it('does not let __proto__ keys touch any prototype', () => {
    const top = yaml('name: p', '__proto__: {polluted: true}', 'categories: {hate: {threshold: 0.5, action: block}}');
    expect(failure(() => parsePolicyYaml(top)).message).toMatch(/^line 2: unknown key "__proto__" in policy/);
    const asCategory = yaml('name: p', 'categories:', '  __proto__: {threshold: 0.5, action: block}');
    expect(failure(() => parsePolicyYaml(asCategory)).message).toMatch(/^line 3: category must be a name/);
    const inCategory = yaml('name: p', 'categories:', '  hate: {threshold: 0.5, action: block, __proto__: {threshold: 0}}');
    expect(failure(() => parsePolicyYaml(inCategory)).message).toMatch(/^line 3: unknown key "__proto__" in category "hate"/);
    const inRule = yaml('name: p', 'rules:', '  - {category: hate, threshold: 0.5, action: block, __proto__: {polluted: true}}');
    expect(failure(() => parsePolicyYaml(inRule)).message).toMatch(/^line 3: unknown key "__proto__" in rule 1/);

    const probe: Record<string, unknown> = {};
    expect(probe.polluted).toBeUndefined();
    expect(probe.threshold).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  });

  it('treats a merge key as an ordinary, unknown key', () => {
    expect(yamlError(yaml('name: p', 'categories:', '  hate: {<<: *base, action: block}'))).toBe('line 3: aliases (*base) are not allowed in a policy');
    const e = failure(() => parsePolicyYaml(yaml('name: p', 'categories:', '  hate: {<<: {threshold: 0}, threshold: 0.5, action: block}')));
    expect(e.code).toBe('INVALID_POLICY');
    expect(e.message).toMatch(/^line 3: unknown key "<<" in category "hate"/);
  });
});

describe('readYamlDocument', () => {
  it('gives each node its line and column, and resolves plain scalars by the core schema', () => {
    const root = readYamlDocument(yaml('a: 0.5', 'b:', '  - "0.5"', '  - ~', 'c:'), 8);
    if (root?.kind !== 'mapping') throw new Error('expected a mapping');
    const [a, b, c] = root.entries;
    expect([a.key.line, a.value.line, a.value.column]).toEqual([1, 1, 4]);
    expect(a.value.kind === 'scalar' && a.value.resolve()).toBe(0.5);
    if (b.value.kind !== 'sequence') throw new Error('expected a sequence');
    const [quoted, tilde] = b.value.items;
    expect(quoted.kind === 'scalar' && quoted.resolve()).toBe('0.5');
    expect(tilde.kind === 'scalar' && tilde.resolve()).toBeNull();
    expect([quoted.line, tilde.line]).toEqual([3, 4]);
    // An empty value has no offset of its own: it is placed at its key.
    expect([c.value.line, c.value.kind === 'scalar' && c.value.resolve()]).toEqual([5, null]);
  });

  it('returns null for an empty document', () => {
    expect(readYamlDocument('# only a comment\n', 8)).toBeNull();
    expect(readYamlDocument('---\n...\n', 8)).toBeNull();
  });
});
