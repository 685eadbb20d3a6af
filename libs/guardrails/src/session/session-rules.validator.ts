/**
 * Validation of a policy's `sessionRules`. The grammar is small on purpose: plain
 * objects one level deep, closed sets of values, and globs (no regular expressions), so a
 * hostile rule set (deep, huge, catastrophic patterns) is refused (422) after looking at a
 * bounded amount of it, and a valid one costs O(rules x steps x history) to evaluate.
 */
import { ACTION_TYPES, GUARDRAIL_CATEGORIES } from '../guardrail-values';
import { asObject, clip, describe, fail, GUARDRAIL_ERROR_CODES, JsonObject } from '../guardrail-validation.helpers';
import { compileShellPattern, ShellPatternError } from '../shell/shell-glob';
import { SESSION_FACT_KINDS } from './session-facts';
import { SessionRule, SessionRuleStep } from './session-rules';

const CODE = GUARDRAIL_ERROR_CODES.invalidPolicy;
export const SESSION_RULE_LIMITS = { rules: 32, steps: 8, values: 16, nameLength: 64, patternLength: 256, within: 200 } as const;
const RULE_KEYS = ['name', 'steps', 'within', 'action'] as const;
const STEP_KEYS = ['actionType', 'category', 'fact', 'command', 'targetPath'] as const;
const FACTS: readonly string[] = [...SESSION_FACT_KINDS, 'network_egress'];
const CONTROL = /[\u0000-\u001f\u007f]/;

function closedKeys(o: JsonObject, allowed: readonly string[], at: string): void {
  const unknown = Object.keys(o).find((k) => !allowed.includes(k));
  if (unknown !== undefined) throw fail(CODE, `${at} has unknown field "${clip(unknown)}"`, `field=${at}; allowed=${allowed.join(', ')}`);
}

function text(v: unknown, at: string, max: number): string {
  if (typeof v !== 'string') throw fail(CODE, `${at} must be a string`, `field=${at}; got ${describe(v)}`);
  if (v.trim() === '') throw fail(CODE, `${at} must not be empty`, `field=${at}`);
  if (v.length > max) throw fail(CODE, `${at} is too long (${v.length} characters, at most ${max})`, `field=${at}; max=${max}`);
  if (CONTROL.test(v)) throw fail(CODE, `${at} contains control characters`, `field=${at}`);
  return v;
}

function values<T extends string>(v: unknown, at: string, allowed: readonly string[]): T[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list)) throw fail(CODE, `${at} must be a string or an array of strings`, `field=${at}; got ${describe(v)}`);
  if (list.length === 0 || list.length > SESSION_RULE_LIMITS.values)
    throw fail(CODE, `${at} must hold 1 to ${SESSION_RULE_LIMITS.values} values (got ${list.length})`, `field=${at}`);
  return list.map((x, i) => {
    if (typeof x !== 'string' || !allowed.includes(x))
      throw fail(CODE, `${at}[${i}] ${typeof x === 'string' ? `"${clip(x)}" ` : ''}is not a known value`, `field=${at}[${i}]; allowed=${allowed.join(', ')}`);
    return x as T;
  });
}

function glob(v: unknown, at: string): string {
  const p = text(v, at, SESSION_RULE_LIMITS.patternLength);
  try {
    compileShellPattern(p);
  } catch (e) {
    if (e instanceof ShellPatternError) throw fail(CODE, `${at} "${clip(p)}" is not a valid glob pattern: ${e.message}`, `field=${at}`);
    throw e;
  }
  return p;
}

function step(v: unknown, at: string): SessionRuleStep {
  const o = asObject(v, CODE, at);
  closedKeys(o, STEP_KEYS, at);
  const s: SessionRuleStep = {};
  if (o.actionType !== undefined) s.actionType = values(o.actionType, `${at}.actionType`, Object.keys(ACTION_TYPES));
  if (o.category !== undefined) s.category = values(o.category, `${at}.category`, Object.keys(GUARDRAIL_CATEGORIES));
  if (o.fact !== undefined) s.fact = values(o.fact, `${at}.fact`, FACTS);
  if (o.command !== undefined) s.command = glob(o.command, `${at}.command`);
  if (o.targetPath !== undefined) s.targetPath = glob(o.targetPath, `${at}.targetPath`);
  if (Object.keys(s).length === 0) throw fail(CODE, `${at} must set at least one of ${STEP_KEYS.join(', ')}`, `field=${at}`);
  return s;
}

function rule(v: unknown, at: string): SessionRule {
  const o = asObject(v, CODE, at);
  closedKeys(o, RULE_KEYS, at);
  const name = text(o.name, `${at}.name`, SESSION_RULE_LIMITS.nameLength);
  if (!Array.isArray(o.steps)) throw fail(CODE, `${at}.steps must be an array of steps`, `field=${at}.steps; got ${describe(o.steps)}`);
  if (o.steps.length < 2 || o.steps.length > SESSION_RULE_LIMITS.steps)
    throw fail(CODE, `${at}.steps must hold 2 to ${SESSION_RULE_LIMITS.steps} steps (got ${o.steps.length})`, `field=${at}.steps`);
  const steps = o.steps.map((x, i) => step(x, `${at}.steps[${i}]`));
  if (o.action !== 'flag' && o.action !== 'block') throw fail(CODE, `${at}.action must be "flag" or "block"`, `field=${at}.action; allowed=flag, block`);
  const out: SessionRule = { name, steps, action: o.action };
  if (o.within !== undefined) {
    const w = o.within;
    if (typeof w !== 'number' || !Number.isInteger(w) || w < 1 || w > SESSION_RULE_LIMITS.within)
      throw fail(CODE, `${at}.within must be an integer from 1 to ${SESSION_RULE_LIMITS.within}`, `field=${at}.within`);
    out.within = w;
  }
  return out;
}

export function validateSessionRules(v: unknown): SessionRule[] {
  if (!Array.isArray(v)) throw fail(CODE, 'sessionRules must be an array of rules', `field=sessionRules; got ${describe(v)}`);
  if (v.length > SESSION_RULE_LIMITS.rules)
    throw fail(
      CODE,
      `sessionRules has too many rules (${v.length}, at most ${SESSION_RULE_LIMITS.rules})`,
      `field=sessionRules; max=${SESSION_RULE_LIMITS.rules}`,
    );
  const rules = v.map((r, i) => rule(r, `sessionRules[${i}]`));
  const names = new Set<string>();
  for (const r of rules) {
    if (names.has(r.name)) throw fail(CODE, `sessionRules has two rules named "${clip(r.name)}"`, 'field=sessionRules');
    names.add(r.name);
  }
  return rules;
}
