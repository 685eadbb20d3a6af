/**
 * Validation of a Project guardrail policy (PUT, full) and of an inline request policy
 * (any subset). Unknown fields are rejected so a typo cannot silently weaken a policy.
 */
import { GuardrailPolicyOverride, ProjectGuardrailPolicy, SystemZonesPolicy } from './guardrail-policy';
import { asObject, clip, describe, fail, GUARDRAIL_ERROR_CODES, LIMITS, JsonObject } from './guardrail-validation.helpers';
import { compileShellPattern, ShellPatternError } from './shell/shell-glob';
import { looksLikeHost } from './network/network-hosts';
import { validateSessionRules } from './session/session-rules.validator';

const CODE = GUARDRAIL_ERROR_CODES.invalidPolicy;
/** The spec's four fields, all required in a stored policy. */
const FIELDS = ['sensitivePathPrefixes', 'networkAllowlist', 'blockShellPatterns', 'requireApprovalScore'] as const;
/** Fields of our own, optional everywhere. */
const OPTIONAL_FIELDS = ['systemZones', 'sessionRules'] as const;
const ZONE_LISTS = ['add', 'exempt'] as const;
const MAX_ZONE_PREFIXES = 64;
const CONTROL = /[\u0000-\u001f\u007f]/;

export function validateGuardrailPolicy(x: unknown): ProjectGuardrailPolicy {
  const partial = validateGuardrailPolicyOverride(x);
  const missing = FIELDS.filter((f) => partial[f] === undefined);
  if (missing.length > 0) throw fail(CODE, `policy is missing ${missing.join(', ')}`, `missing=${missing.join(', ')}`);
  return partial as ProjectGuardrailPolicy;
}

export function validateGuardrailPolicyOverride(x: unknown): GuardrailPolicyOverride {
  const o = asObject(x, CODE, 'policy');
  const allowed: readonly string[] = [...FIELDS, ...OPTIONAL_FIELDS];
  const unknown = Object.keys(o).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    throw fail(
      CODE,
      `policy has unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${clip(k)}"`).join(', ')}`,
      `allowed=${allowed.join(', ')}`,
    );
  }
  const out: GuardrailPolicyOverride = {};
  if (o.sensitivePathPrefixes !== undefined)
    out.sensitivePathPrefixes = stringList(o, 'sensitivePathPrefixes', LIMITS.policyListItems, LIMITS.policyPathLength, checkPrefix);
  if (o.networkAllowlist !== undefined) out.networkAllowlist = stringList(o, 'networkAllowlist', LIMITS.policyListItems, LIMITS.policyHostLength, checkHost);
  if (o.blockShellPatterns !== undefined)
    out.blockShellPatterns = stringList(o, 'blockShellPatterns', LIMITS.blockShellPatterns, LIMITS.blockShellPatternLength, checkPattern);
  if (o.requireApprovalScore !== undefined) out.requireApprovalScore = score(o.requireApprovalScore);
  if (o.systemZones !== undefined) out.systemZones = systemZones(o.systemZones);
  if (o.sessionRules !== undefined) out.sessionRules = validateSessionRules(o.sessionRules);
  return out;
}

/** `{add?: [prefix], exempt?: [prefix]}`; both lists are always present once validated. */
function systemZones(v: unknown): SystemZonesPolicy {
  const o = asObject(v, CODE, 'systemZones');
  const unknown = Object.keys(o).filter((k) => !(ZONE_LISTS as readonly string[]).includes(k));
  if (unknown.length > 0) throw fail(CODE, `systemZones has unknown field "${clip(unknown[0])}"`, `allowed=${ZONE_LISTS.join(', ')}`);
  const list = (k: (typeof ZONE_LISTS)[number]) =>
    o[k] === undefined ? [] : stringList(o, k, MAX_ZONE_PREFIXES, LIMITS.policyPathLength, checkPrefix, `systemZones.${k}`);
  return { add: list('add'), exempt: list('exempt') };
}

function stringList(o: JsonObject, key: string, maxItems: number, maxLength: number, check: (v: string) => string | null, field = key): string[] {
  const v = o[key];
  if (!Array.isArray(v)) throw fail(CODE, `${field} must be an array of strings`, `field=${field}; got ${describe(v)}`);
  if (v.length > maxItems) throw fail(CODE, `${field} has too many entries (${v.length}, at most ${maxItems})`, `field=${field}; max=${maxItems}`);
  return v.map((item, i) => {
    const at = `${field}[${i}]`;
    if (typeof item !== 'string') throw fail(CODE, `${at} must be a string`, `field=${at}; got ${describe(item)}`);
    if (item.length > maxLength) throw fail(CODE, `${at} is too long (${item.length} characters, at most ${maxLength})`, `field=${at}; max=${maxLength}`);
    if (item.trim() === '') throw fail(CODE, `${at} must not be empty`, `field=${at}`);
    if (CONTROL.test(item)) throw fail(CODE, `${at} contains control characters`, `field=${at}`);
    const problem = check(item);
    if (problem) throw fail(CODE, `${at} "${clip(item)}" ${problem}`, `field=${at}`);
    return item;
  });
}

function checkPrefix(p: string): string | null {
  const t = p.trim();
  if (!/^(?:\/|~(?:\/|$)|\$HOME(?:\/|$)|[a-z]:[\\/])/i.test(t)) return 'must be an absolute path or start with ~/ or $HOME/';
  return null;
}

function checkHost(h: string): string | null {
  const t = h.trim().toLowerCase();
  if (t === '*') return null;
  if (/[/:@?#]/.test(t) && !/^[0-9a-f:]+$/.test(t) && !/^\[[0-9a-f:]+\]$/.test(t)) {
    return 'must be a bare host such as "github.com" or "*.example.com" (no scheme, port or path)';
  }
  const host = t.startsWith('*.') ? t.slice(2) : t;
  if (host.includes('*')) return 'may only use "*" as a whole entry or as a leading "*." label';
  if (!looksLikeHost(host)) return 'is not a valid host name or IP address';
  return null;
}

function checkPattern(p: string): string | null {
  try {
    compileShellPattern(p);
    return null;
  } catch (e) {
    if (e instanceof ShellPatternError) return `is not a valid glob pattern: ${e.message}`;
    throw e;
  }
}

function score(v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw fail(CODE, 'requireApprovalScore must be a number', `field=requireApprovalScore; got ${describe(v)}`);
  if (v < 0 || v > 100) throw fail(CODE, `requireApprovalScore must be between 0 and 100 (got ${v})`, 'field=requireApprovalScore; min=0; max=100');
  return v;
}
