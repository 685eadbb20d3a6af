import { Action } from '@cds/events';
import { DomainError, invalid } from '@cds/errors';
import { setOwn } from './own-record';
import { ACTIONS, CategoryPolicy, NAME_PATTERN, ParsedPolicy, POLICY_LIMITS, Rule } from './policy.types';
import { Position, quote, readYamlDocument, YamlMapping, YamlNode, YamlScalar } from './policy.yaml-reader';
import { rulesByCategory, selectRule } from './rule-selection';

const TOP_KEYS = ['name', 'version', 'description', 'provider', 'fallback', 'categories', 'rules'];
const CATEGORY_KEYS = ['threshold', 'action', 'provider'];
const RULE_KEYS = ['category', 'threshold', 'action', 'provider'];
const NAME_RULE = 'lowercase letters, digits, "_" or "-", starting with a letter, at most 64 characters';

/**
 * Parses policy YAML in either spec shape, (a) `categories` mapping or (b) `rules`
 * list, into one rule list. The grammar is in libs/policy/POLICY_GRAMMAR.md.
 * Errors name the line: POLICY_TOO_LARGE, INVALID_POLICY_YAML (the YAML itself),
 * INVALID_POLICY (well-formed YAML that is not a valid policy).
 */
export function parsePolicyYaml(yamlContent: string): ParsedPolicy {
  if (typeof yamlContent !== 'string') {
    throw invalid('INVALID_POLICY_YAML', 'line 1: the policy must be YAML text', 'line 1, column 1');
  }
  assertSize(yamlContent);
  const root = readYamlDocument(yamlContent, POLICY_LIMITS.maxDepth);
  if (root === null) throw policyError({ line: 1, column: 1 }, 'policy is empty; expected a mapping with "name" and "categories" or "rules"');
  if (root.kind !== 'mapping') {
    throw policyError(root, `policy must be a mapping with "name" and "categories" or "rules" (got ${describe(root)})`);
  }
  return toPolicy(root);
}

function toPolicy(root: YamlMapping): ParsedPolicy {
  let name: string | undefined;
  let version: string | undefined;
  let description: string | undefined;
  let provider: string | undefined;
  let fallback: string[] | undefined;
  let rules: Rule[] | undefined;
  let rulesKey: YamlScalar | undefined;
  for (const { key, value } of root.entries) {
    switch (key.text) {
      case 'name':
        name = text(value, 'name', POLICY_LIMITS.maxNameLength);
        break;
      case 'version':
        version = text(value, 'version', POLICY_LIMITS.maxVersionLength);
        break;
      case 'description':
        description = text(value, 'description', POLICY_LIMITS.maxDescriptionLength);
        break;
      case 'provider':
        provider = nameOf(value, 'provider');
        break;
      case 'fallback':
        fallback = fallbackOf(value);
        break;
      case 'categories':
      case 'rules':
        if (rulesKey) {
          throw policyError(key, `use either "categories" or "rules", not both ("${rulesKey.text}" is on line ${rulesKey.line})`);
        }
        rulesKey = key;
        rules = key.text === 'categories' ? fromCategoryMap(value) : fromRuleList(value);
        break;
      default:
        throw unknownKey(key, TOP_KEYS, 'policy');
    }
  }
  if (name === undefined) throw policyError(root, 'policy is missing "name"');
  if (!rules) throw policyError(root, 'policy needs "categories" (a mapping of category -> threshold and action) or "rules" (a list of rules)');

  const categories: Record<string, CategoryPolicy> = {};
  for (const [category, candidates] of rulesByCategory(rules)) {
    const { threshold, action, provider } = selectRule(candidates, undefined);
    setOwn(categories, category, provider === undefined ? { threshold, action } : { threshold, action, provider });
  }
  return {
    name,
    ...(version !== undefined && { version }),
    ...(description !== undefined && { description }),
    ...(provider !== undefined && { provider }),
    ...(fallback !== undefined && { fallback }),
    categories,
    rules,
  };
}

/** Shape (a): `categories: {hate: {threshold: 0.8, action: block}, ...}`. */
function fromCategoryMap(node: YamlNode): Rule[] {
  if (node.kind !== 'mapping') {
    throw policyError(node, `"categories" must be a mapping of category name -> {threshold, action} (got ${describe(node)})`);
  }
  if (node.entries.length === 0) throw policyError(node, '"categories" must name at least one category');
  checkCount(
    node.entries.map((e) => e.key),
    'categories',
  );
  return node.entries.map(({ key, value }) => {
    const category = nameOf(key, 'category');
    const where = `category ${quote(category)}`;
    if (value.kind !== 'mapping') throw policyError(value, `${where} must be a mapping with "threshold" and "action" (got ${describe(value)})`);
    const fields = fieldsOf(value, CATEGORY_KEYS, where);
    return rule(value, where, category, fields);
  });
}

/** Shape (b): `rules: [{category: hate, threshold: 0.8, provider: local, action: block}, ...]`. */
function fromRuleList(node: YamlNode): Rule[] {
  if (node.kind !== 'sequence') {
    throw policyError(node, `"rules" must be a list of {category, threshold, action, provider} (got ${describe(node)})`);
  }
  if (node.items.length === 0) throw policyError(node, '"rules" must contain at least one rule');
  checkCount(node.items, 'rules');
  const seen = new Map<string, Position>();
  return node.items.map((item, index) => {
    const where = `rule ${index + 1}`;
    if (item.kind !== 'mapping') throw policyError(item, `${where} must be a mapping with "category", "threshold" and "action" (got ${describe(item)})`);
    const fields = fieldsOf(item, RULE_KEYS, where);
    const categoryNode = required(item, fields, 'category', where);
    const category = nameOf(categoryNode, 'category');
    const result = rule(item, where, category, fields);
    const id = `${category}\u0000${result.provider ?? ''}`;
    const first = seen.get(id);
    if (first) {
      const which = result.provider === undefined ? 'without a provider' : `for provider ${quote(result.provider)}`;
      throw policyError(categoryNode, `duplicate rule for category ${quote(category)} ${which} (first defined on line ${first.line})`);
    }
    seen.set(id, categoryNode);
    return result;
  });
}

function rule(node: YamlMapping, where: string, category: string, fields: Map<string, YamlNode>): Rule {
  const threshold = thresholdOf(required(node, fields, 'threshold', where));
  const action = actionOf(required(node, fields, 'action', where));
  const providerNode = fields.get('provider');
  const provider = providerNode === undefined ? undefined : nameOf(providerNode, 'provider');
  return provider === undefined ? { category, threshold, action } : { category, threshold, action, provider };
}

function fieldsOf(node: YamlMapping, allowed: string[], where: string): Map<string, YamlNode> {
  const fields = new Map<string, YamlNode>();
  for (const { key, value } of node.entries) {
    if (!allowed.includes(key.text)) throw unknownKey(key, allowed, where);
    fields.set(key.text, value);
  }
  return fields;
}

function required(node: YamlMapping, fields: Map<string, YamlNode>, key: string, where: string): YamlNode {
  const value = fields.get(key);
  if (value === undefined) throw policyError(node, `${where} is missing "${key}"`);
  return value;
}

function checkCount(items: Position[], what: string): void {
  if (items.length > POLICY_LIMITS.maxRules) {
    throw policyError(items[POLICY_LIMITS.maxRules], `too many ${what}: at most ${POLICY_LIMITS.maxRules} are allowed (got ${items.length})`);
  }
}

function thresholdOf(node: YamlNode): number {
  if (node.kind === 'scalar' && node.plain) {
    const v = node.resolve();
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1) return v === 0 ? 0 : v;
  }
  const quotedNumber = node.kind === 'scalar' && !node.plain && node.text.trim() !== '' && Number.isFinite(Number(node.text));
  const hint = quotedNumber ? '; write the number without quotes' : '';
  throw policyError(node, `threshold must be a number between 0 and 1 (got ${describe(node)}${hint})`);
}

function actionOf(node: YamlNode): Action {
  const action = ACTIONS.find((a) => node.kind === 'scalar' && node.text === a);
  if (!action) throw policyError(node, `action must be one of ${ACTIONS.join(', ')} (got ${describe(node)})`);
  return action;
}

/** Category and provider names. */
function nameOf(node: YamlNode, field: string): string {
  if (node.kind !== 'scalar' || !NAME_PATTERN.test(node.text)) {
    throw policyError(node, `${field} must be a name of ${NAME_RULE} (got ${describe(node)})`);
  }
  return node.text;
}

/** `fallback: [local, azure]`: providers tried in order when a category's provider
 * cannot answer; `fallback: []` means none. */
function fallbackOf(node: YamlNode): string[] {
  if (node.kind !== 'sequence') throw policyError(node, `fallback must be a list of provider names (got ${describe(node)})`);
  if (node.items.length > POLICY_LIMITS.maxFallbacks) {
    throw policyError(node.items[POLICY_LIMITS.maxFallbacks], `fallback lists at most ${POLICY_LIMITS.maxFallbacks} providers (got ${node.items.length})`);
  }
  const names: string[] = [];
  for (const item of node.items) {
    const name = nameOf(item, 'fallback provider');
    if (names.includes(name)) throw policyError(item, `fallback names provider ${quote(name)} twice`);
    names.push(name);
  }
  return names;
}

/** Free text is taken as written, so `version: 1.0` stays "1.0". */
function text(node: YamlNode, field: string, maxLength: number): string {
  if (node.kind !== 'scalar' || isNull(node) || node.text.trim() === '') {
    throw policyError(node, `${field} must be non-empty text (got ${describe(node)})`);
  }
  if (node.text.length > maxLength) throw policyError(node, `${field} must be at most ${maxLength} characters (got ${node.text.length})`);
  return node.text;
}

function isNull(node: YamlScalar): boolean {
  return node.plain && node.resolve() === null;
}

function describe(node: YamlNode): string {
  if (node.kind === 'mapping') return 'a mapping';
  if (node.kind === 'sequence') return 'a list';
  if (isNull(node)) return 'nothing';
  if (node.plain && typeof node.resolve() !== 'string') return node.text.length > 40 ? quote(node.text) : node.text;
  return quote(node.text);
}

function unknownKey(key: YamlScalar, allowed: string[], where: string): DomainError {
  const hint = closest(key.text, allowed);
  return policyError(key, `unknown key ${quote(key.text)} in ${where} (allowed: ${allowed.join(', ')})${hint ? `; did you mean "${hint}"?` : ''}`);
}

/** The allowed key within two edits of a typo, if any. */
function closest(word: string, candidates: string[]): string | undefined {
  if (word.length > 40) return undefined;
  let best: string | undefined;
  let bestDistance = 3;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** Counted in UTF-8 bytes; the error names the line where the limit is passed. */
function assertSize(source: string): void {
  const max = POLICY_LIMITS.maxBytes;
  if (source.length * 3 <= max) return; // a UTF-16 unit is at most 3 UTF-8 bytes
  let bytes = 0;
  let line = 1;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (source.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4; // a surrogate pair
      i++;
    } else bytes += 3;
    if (bytes > max) {
      const total = Buffer.byteLength(source, 'utf8');
      throw invalid(
        'POLICY_TOO_LARGE',
        `line ${line}: policy is larger than ${max} bytes (64 KiB); it is ${total} bytes`,
        `line ${line}: the size limit is passed on this line`,
      );
    }
    if (c === 0x0a || (c === 0x0d && source.charCodeAt(i + 1) !== 0x0a)) line++;
  }
}

function policyError(at: Position, reason: string): DomainError {
  return invalid('INVALID_POLICY', `line ${at.line}: ${reason}`, `line ${at.line}, column ${at.column}`);
}
