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
}

type Expect = CaseBase['expect'];
type Extra = Partial<Pick<CaseBase, 'evasion' | 'policy'>> & { permissions?: ActionAuthorizeInput['requestedPermissions']; targetPath?: string };

function exp(action: GuardrailAction, categories: GuardrailCategory[], requiresApproval?: boolean): Expect {
  return requiresApproval === undefined ? { action, categories } : { action, categories, requiresApproval };
}

/** An `exec` of a shell command. */
export function command(
  id: string,
  safe: boolean,
  cmd: string,
  action: GuardrailAction,
  categories: GuardrailCategory[],
  extra: Extra & { requiresApproval?: boolean } = {},
): CorpusCase {
  return {
    id,
    kind: 'command',
    safe,
    evasion: extra.evasion,
    policy: extra.policy,
    input: { actionType: 'exec', command: cmd, targetPath: extra.targetPath ?? '', requestedPermissions: extra.permissions ?? [] },
    expect: exp(action, categories, extra.requiresApproval),
  };
}

/** Any action type, with a command and/or a target path. */
export function action(
  id: string,
  safe: boolean,
  input: Partial<ActionAuthorizeInput> & Pick<ActionAuthorizeInput, 'actionType'>,
  action: GuardrailAction,
  categories: GuardrailCategory[],
  extra: Extra & { requiresApproval?: boolean } = {},
): CorpusCase {
  return {
    id,
    kind: input.targetPath ? 'path' : 'action',
    safe,
    evasion: extra.evasion,
    policy: extra.policy,
    input: { command: '', targetPath: '', requestedPermissions: [], ...input },
    expect: exp(action, categories, extra.requiresApproval),
  };
}

const TRUSTED_SKILL: Omit<SkillVettingInput, 'skillId'> = {
  name: 'skill',
  source: 'official',
  prompt: '',
  requestedPermissions: [],
  hasChecksum: true,
  signedPublisher: true,
  maintainerReputation: 'trusted',
};

/** A skill; fields default to a fully trusted one, so each case states what is risky. */
export function skill(
  id: string,
  safe: boolean,
  input: Partial<SkillVettingInput>,
  action: GuardrailAction,
  categories: GuardrailCategory[],
  extra: Pick<Extra, 'evasion' | 'policy'> = {},
): CorpusCase {
  return {
    id,
    kind: 'skill',
    safe,
    evasion: extra.evasion,
    policy: extra.policy,
    input: { skillId: id, ...TRUSTED_SKILL, ...input },
    expect: exp(action, categories),
  };
}
