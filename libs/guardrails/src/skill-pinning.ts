/**
 * Skill pinning: the content of a vetted skill (its prompt and its permissions) is
 * remembered by hash per project; the same skillId coming back with other content is
 * reported as changed since vetting, with what changed (the "rug pull" of a tool whose
 * description changes after it was approved). Which vetting is the pin is the api's
 * choice (GUARDRAILS.md, "Skill pinning"); this file compares.
 */
import { createHash } from 'node:crypto';
import { RiskFinding } from './guardrail-verdict';
import { Permission } from './guardrail-values';
import { SkillVettingInput } from './skill-vetting';

/** The vetting a skill is pinned to. */
export interface PinnedSkill {
  decisionId: string;
  /** ISO 8601 time of that vetting. */
  vettedAt: string;
  contentHash: string;
  prompt: string;
  requestedPermissions: readonly string[];
}

export const SKILL_CHANGED_POINTS = 50;
const EXCERPT = 60;

function permissionSet(p: readonly string[]): string[] {
  return [...new Set(p)].sort();
}

/** sha256 of the skill's content: its prompt and its permissions (order and repeats ignored). */
export function skillContentHash(input: Pick<SkillVettingInput, 'prompt' | 'requestedPermissions'>): string {
  const canonical = JSON.stringify({ prompt: input.prompt, requestedPermissions: permissionSet(input.requestedPermissions) });
  return `sha256:${createHash('sha256').update(canonical).digest('hex')}`;
}

function excerpt(line: string | undefined): string {
  if (line === undefined) return '(nothing)';
  const t = line.trim();
  return `"${t.length > EXCERPT ? `${t.slice(0, EXCERPT - 1)}\u2026` : t}"`;
}

/** What changed in the prompt, in words: sizes and the first line that differs. */
function promptChange(before: string, after: string): string | null {
  if (before === after) return null;
  const a = before.split('\n');
  const b = after.split('\n');
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return `prompt changed (${before.length} to ${after.length} characters; line ${k + 1} was ${excerpt(a[k])}, now ${excerpt(b[k])})`;
}

function permissionChange(before: readonly string[], after: readonly Permission[]): string | null {
  const was = new Set(permissionSet(before));
  const now = new Set(permissionSet(after));
  const added = [...now].filter((p) => !was.has(p));
  const removed = [...was].filter((p) => !now.has(p));
  const parts = [added.length > 0 ? `added ${added.join(', ')}` : '', removed.length > 0 ? `removed ${removed.join(', ')}` : ''].filter(Boolean);
  return parts.length > 0 ? `permissions ${parts.join('; ')}` : null;
}

/** A `skill_changed` finding when the skill's content is not what was pinned, else nothing. */
export function skillChangeFindings(input: SkillVettingInput, pinned: PinnedSkill | null | undefined): RiskFinding[] {
  if (!pinned || skillContentHash(input) === pinned.contentHash) return [];
  const changes = [promptChange(pinned.prompt, input.prompt), permissionChange(pinned.requestedPermissions, input.requestedPermissions)].filter(Boolean);
  return [
    {
      category: 'skill_changed',
      points: SKILL_CHANGED_POINTS,
      reason: `skill "${input.skillId}" changed since it was vetted (decision ${pinned.decisionId}, ${pinned.vettedAt}): ${changes.join('; ') || 'content changed'}`,
    },
  ];
}
