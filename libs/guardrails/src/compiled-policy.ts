import { ProjectGuardrailPolicy } from './guardrail-policy';
import { compilePathPrefix, PathPrefix } from './paths/path-normalizer';
import { CompiledShellPattern, compileShellPattern } from './shell/shell-glob';
import { CompiledZones, compileZones } from './rules/system-zones';
import { CompiledSessionRule, compileSessionRules } from './session/session-rules';

/** A policy with its prefixes and patterns compiled, cached per policy object. */
export interface CompiledPolicy {
  prefixes: PathPrefix[];
  allowlist: readonly string[];
  patterns: Array<{ index: number; pattern: CompiledShellPattern }>;
  requireApprovalScore: number;
  zones: CompiledZones;
  sessionRules: CompiledSessionRule[];
}

const cache = new WeakMap<ProjectGuardrailPolicy, CompiledPolicy>();

/**
 * Expects a validated policy; a pattern that does not compile is skipped here because
 * validateGuardrailPolicy already rejected it at the door.
 */
export function compilePolicy(policy: ProjectGuardrailPolicy): CompiledPolicy {
  const hit = cache.get(policy);
  if (hit) return hit;
  const patterns: CompiledPolicy['patterns'] = [];
  policy.blockShellPatterns.forEach((p, index) => {
    try {
      patterns.push({ index, pattern: compileShellPattern(p) });
    } catch {
      /* rejected by validation */
    }
  });
  const compiled: CompiledPolicy = {
    prefixes: policy.sensitivePathPrefixes.map(compilePathPrefix),
    allowlist: policy.networkAllowlist,
    patterns,
    requireApprovalScore: policy.requireApprovalScore,
    zones: compileZones(policy.systemZones),
    sessionRules: compileSessionRules(policy.sessionRules),
  };
  cache.set(policy, compiled);
  return compiled;
}
