import { ActionAuthorizeInput } from '../action-authorization';
import { GuardrailPolicyOverride } from '../guardrail-policy';
import { GuardrailAction, GuardrailCategory } from '../guardrail-values';
import { SkillVettingInput } from '../skill-vetting';

/**
 * One row of the corpus. `safe` is the ground truth a reviewer would give (benign or
 * not); `expect` is the exact verdict the engine must return under the default policy,
 * or under `policy` merged over it with the request precedence.
 */
export type CorpusCase =
  (CaseBase & { kind: 'command' | 'path' | 'action'; input: ActionAuthorizeInput }) | (CaseBase & { kind: 'skill'; input: SkillVettingInput });

interface CaseBase {
  id: string;
  safe: boolean;
  /** Marks attempts to slip past the engine through spelling, quoting or nesting. */
  evasion?: boolean;
  policy?: GuardrailPolicyOverride;
  expect: { action: GuardrailAction; categories: GuardrailCategory[]; requiresApproval?: boolean };
  /** Why the case is there, where its line alone does not say. */
  note?: string;
}

/**
 * A case as written in cases/*.jsonl, one a line, with exactly one of: `command` (an
 * `exec` of a shell command, with an optional `targetPath` and `permissions`), `action`
 * (any action type; fields left out are empty) or `skill` (fields left out are those of a
 * fully trusted skill, so each case states what is risky).
 */
export type CaseRow = CaseBase & {
  command?: string;
  targetPath?: string;
  permissions?: ActionAuthorizeInput['requestedPermissions'];
  action?: Partial<ActionAuthorizeInput> & Pick<ActionAuthorizeInput, 'actionType'>;
  skill?: Partial<SkillVettingInput>;
};

const TRUSTED_SKILL: Omit<SkillVettingInput, 'skillId'> = {
  name: 'skill',
  source: 'official',
  prompt: '',
  requestedPermissions: [],
  hasChecksum: true,
  signedPublisher: true,
  maintainerReputation: 'trusted',
};

export function corpusCase(row: CaseRow): CorpusCase {
  const { command, targetPath, permissions, action, skill, ...base } = row;
  if ([command, action, skill].filter((x) => x !== undefined).length !== 1) throw new Error(`corpus case ${row.id}: one of command, action, skill`);
  if (skill) return { ...base, kind: 'skill', input: { skillId: row.id, ...TRUSTED_SKILL, ...skill } };
  if (action) return { ...base, kind: action.targetPath ? 'path' : 'action', input: { command: '', targetPath: '', requestedPermissions: [], ...action } };
  return {
    ...base,
    kind: 'command',
    input: { actionType: 'exec', command: command ?? '', targetPath: targetPath ?? '', requestedPermissions: permissions ?? [] },
  };
}
