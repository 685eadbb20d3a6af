import { analyzeCommand, snippet } from './command-analysis';
import { compilePolicy } from './compiled-policy';
import { ProjectGuardrailPolicy } from './guardrail-policy';
import { MAINTAINER_REPUTATIONS, Permission, PERMISSIONS, SKILL_SOURCES, SkillSource, MaintainerReputation } from './guardrail-values';
import { buildVerdict, GuardrailVerdict, RiskFinding } from './guardrail-verdict';
import { promptCodeSpans } from './rules/prompt-commands';
import { promptInjectionFindings } from './rules/prompt-injection';
import { canonicalWithWrappers } from './shell/shell-parser';
import { PinnedSkill, skillChangeFindings } from './skill-pinning';

export interface SkillVettingInput {
  skillId: string;
  name: string;
  source: SkillSource;
  prompt: string;
  requestedPermissions: Permission[];
  hasChecksum: boolean;
  signedPublisher: boolean;
  maintainerReputation: MaintainerReputation;
}

/**
 * What a learned prompt-attack model said of the prompt, computed by the caller (the engine
 * stays pure): the probability that it is a prompt injection and that it is a jailbreak, the
 * threshold they were validated at, and the model's id.
 */
export interface PromptModelScore {
  prompt_injection: number;
  jailbreak: number;
  threshold: number;
  model: string;
}

/** Points of a model finding: 50 (flag) at the threshold, rising to 80 (block) at 1. */
export const PROMPT_MODEL_POINTS = { atThreshold: 50, atCertainty: 80 } as const;

/** Weights of a dangerous command shown in a prompt (it is never run by vetting itself). */
export const PROMPT_CODE_POINTS = { critical: 60, high: 40, medium: 20, warnedAgainst: 20 } as const;

/** Built-in rules whose hits inside a prompt's code are reported as dangerous_command. */
const PROMPT_CODE_RULES = new Set(['recursive_delete', 'disk_wipe', 'reverse_shell', 'fork_bomb', 'system_permissions', 'credential_read', 'history_wipe']);

/**
 * Scores a skill before it is installed. Prompt code, and commands written in its
 * sentences, are only shown, never run (and may be a warning: "never run `rm -rf /`"),
 * so a dangerous command in them weighs PROMPT_CODE_POINTS and never forces a block.
 */
export function vetSkill(
  input: SkillVettingInput,
  policy: ProjectGuardrailPolicy,
  pinned: PinnedSkill | null = null,
  promptModel: PromptModelScore | null = null,
): GuardrailVerdict {
  const findings: RiskFinding[] = [];
  const source = SKILL_SOURCES[input.source];
  if (source.points > 0) {
    findings.push({ category: 'marketplace_source', points: source.points, reason: `source "${input.source}" ${source.label}` });
  }
  for (const p of new Set(input.requestedPermissions)) {
    const perm = PERMISSIONS[p];
    if (perm.points > 0) {
      findings.push({
        category: 'high_privilege_permission',
        points: perm.points,
        reason: `requests high-privilege permission "${p}" (${perm.label})`,
      });
    }
  }
  if (!input.hasChecksum) {
    findings.push({ category: 'integrity_unverified', points: 15, reason: 'has no checksum, so its content cannot be verified' });
  }
  if (!input.signedPublisher) {
    findings.push({ category: 'unsigned_publisher', points: 10, reason: 'publisher is not signed' });
  }
  const reputation = MAINTAINER_REPUTATIONS[input.maintainerReputation];
  if (reputation.points > 0) {
    findings.push({
      category: 'low_reputation',
      points: reputation.points,
      reason: `maintainer reputation is "${input.maintainerReputation}"`,
    });
  }
  findings.push(...promptInjectionFindings(input.prompt, policy.networkAllowlist));
  if (promptModel) findings.push(...promptModelFindings(promptModel));
  findings.push(...promptCodeFindings(input.prompt, policy));
  findings.push(...skillChangeFindings(input, pinned));
  return buildVerdict(findings, policy.requireApprovalScore);
}

function promptModelFindings(m: PromptModelScore): RiskFinding[] {
  const p = Math.max(m.prompt_injection, m.jailbreak);
  if (!(p >= m.threshold)) return [];
  const { atThreshold, atCertainty } = PROMPT_MODEL_POINTS;
  const points = Math.round(atThreshold + ((atCertainty - atThreshold) * (p - m.threshold)) / Math.max(1e-9, 1 - m.threshold));
  const what = m.jailbreak > m.prompt_injection ? 'a jailbreak' : 'a prompt injection';
  return [
    {
      category: 'prompt_injection',
      points: Math.min(atCertainty, points),
      reason: `prompt reads as ${what} to the prompt-attack model (${p.toFixed(2)}, threshold ${m.threshold})`,
    },
  ];
}

function promptCodeFindings(prompt: string, policy: ProjectGuardrailPolicy): RiskFinding[] {
  const compiled = compilePolicy(policy);
  const out: RiskFinding[] = [];
  for (const span of promptCodeSpans(prompt)) {
    const { risks } = analyzeCommand(span.code, compiled, 'prompt code');
    for (const r of risks) {
      if (!PROMPT_CODE_RULES.has(r.rule)) continue;
      const where = span.plainText ? 'prompt text names the command' : 'prompt shows the command';
      const shown = `${where} "${snippet(r.shown ?? canonicalWithWrappers(r.command))}" (${r.description})`;
      out.push(
        span.warnedAgainst
          ? { category: 'dangerous_command', points: PROMPT_CODE_POINTS.warnedAgainst, reason: `${shown}, in a warning not to run it` }
          : { category: 'dangerous_command', points: PROMPT_CODE_POINTS[r.severity], reason: shown },
      );
    }
  }
  return out;
}
