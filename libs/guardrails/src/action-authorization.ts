import { analyzeCommand, CommandAnalysis, NETWORK_EGRESS_POINTS, SENSITIVE_PATH_POINTS, snippet } from './command-analysis';
import { CompiledPolicy, compilePolicy } from './compiled-policy';
import { ProjectGuardrailPolicy } from './guardrail-policy';
import { ACTION_TYPES, ActionType, NETWORK_ACTION_TYPES, Permission, PERMISSIONS } from './guardrail-values';
import { buildVerdict, GuardrailVerdict, RiskFinding } from './guardrail-verdict';
import { hostAllowed, isLoopback, looksLikeHost, normalizeHost, urlHosts } from './network/network-hosts';
import { isUnderWorkspace, matchesPathPrefix, normalizePath } from './paths/path-normalizer';
import { credentialKind } from './rules/credential-files';
import { PathVerb } from './shell/path-actions';
import { targetZoneFinding } from './system-zone-analysis';

export interface ActionAuthorizeInput {
  actionType: ActionType;
  /** Shell command the action runs; '' when none. */
  command: string;
  /** File (or, for network actions, URL or host) the action touches; '' when none. */
  targetPath: string;
  requestedPermissions: Permission[];
}

export const PATH_TRAVERSAL_POINTS = 30;
const WRITE_TYPES: readonly ActionType[] = ['file_write', 'file_delete'];
const TARGET_VERBS: Partial<Record<ActionType, PathVerb>> = { file_write: 'write', file_delete: 'delete' };

/** Authorizes one runtime action of an agent against the resolved policy. */
export function authorizeAction(input: ActionAuthorizeInput, policy: ProjectGuardrailPolicy): GuardrailVerdict {
  return buildVerdict(actionFindings(input, policy).findings, policy.requireApprovalScore);
}

/** The findings of one action, and the analysis of its command (null without one). */
export function actionFindings(input: ActionAuthorizeInput, policy: ProjectGuardrailPolicy): { findings: RiskFinding[]; analysis: CommandAnalysis | null } {
  const compiled = compilePolicy(policy);
  const type = ACTION_TYPES[input.actionType];
  const findings: RiskFinding[] = [];
  if (type.points > 0) {
    findings.push({
      category: 'sensitive_action',
      points: type.points,
      reason: `action type "${input.actionType}" is sensitive by default (${type.label})`,
    });
  }
  const implied: readonly Permission[] = type.implies;
  for (const p of new Set(input.requestedPermissions)) {
    if (PERMISSIONS[p].points === 0 || implied.includes(p)) continue;
    findings.push({
      category: 'high_privilege_permission',
      points: PERMISSIONS[p].points,
      reason: `requests high-privilege permission "${p}" (${PERMISSIONS[p].label}), which a ${input.actionType} action does not need`,
    });
  }
  const analysis = input.command.trim() === '' ? null : analyzeCommand(input.command, compiled);
  if (analysis) findings.push(...analysis.findings);
  if (input.targetPath.trim() !== '') findings.push(...targetFindings(input, compiled));
  return { findings, analysis };
}

function targetFindings(input: ActionAuthorizeInput, policy: CompiledPolicy): RiskFinding[] {
  const raw = input.targetPath;
  if (/^[a-z][a-z0-9+.-]{1,15}:\/\//i.test(raw) && !/^file:/i.test(raw))
    return targetHostFindings(
      urlHosts(raw).map((m) => m.host),
      raw,
      policy,
    );
  if (NETWORK_ACTION_TYPES.includes(input.actionType) && looksLikeHost(raw.split('/')[0])) {
    return targetHostFindings([normalizeHost(raw.split('/')[0])], raw, policy);
  }
  const out: RiskFinding[] = [];
  const np = normalizePath(raw);
  const mode = WRITE_TYPES.includes(input.actionType) ? 'write' : 'read';
  const shown = `targetPath "${snippet(raw)}"${np.display !== raw ? ` (resolves to ${np.display})` : ''}`;
  const zone = targetZoneFinding(raw, TARGET_VERBS[input.actionType] ?? 'read', policy);
  if (zone) out.push({ category: zone.category, points: zone.points, reason: zone.reason, forceBlock: zone.forceBlock });
  const prefix = zone ? undefined : policy.prefixes.find((p) => matchesPathPrefix(np, p));
  if (prefix) {
    out.push({
      category: 'sensitive_path',
      points: SENSITIVE_PATH_POINTS[mode],
      reason: `${shown} is under sensitive prefix "${prefix.source}"`,
    });
  }
  const credential = credentialKind(np);
  if (credential) {
    out.push({ category: 'sensitive_path', points: SENSITIVE_PATH_POINTS.write, reason: `${shown} is a credential file (${credential})` });
  }
  if (np.encoded) {
    out.push({ category: 'path_traversal', points: PATH_TRAVERSAL_POINTS, reason: `${shown} hides its path with URL encoding` });
  }
  if (np.climbed && !isUnderWorkspace(np)) {
    out.push({ category: 'path_traversal', points: PATH_TRAVERSAL_POINTS, reason: `${shown} uses ".." to climb out of its directory` });
  }
  return out;
}

function targetHostFindings(hosts: string[], raw: string, policy: CompiledPolicy): RiskFinding[] {
  return hosts
    .filter((h) => !isLoopback(h) && !hostAllowed(h, policy.allowlist))
    .map((h) => ({
      category: 'network_egress' as const,
      points: NETWORK_EGRESS_POINTS,
      reason: `targetPath "${snippet(raw)}" contacts "${h}", which is not in networkAllowlist`,
    }));
}
