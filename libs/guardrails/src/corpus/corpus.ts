import { DANGEROUS_COMMANDS, SAFE_COMMANDS } from './command-cases';
import { CorpusCase } from './corpus.types';
import { DANGEROUS_ACTIONS, SAFE_ACTIONS } from './path-cases';
import { DANGEROUS_POLICY_CASES, SAFE_POLICY_CASES } from './policy-cases';
import { DANGEROUS_SKILLS, SAFE_SKILLS } from './skill-cases';
import { HELD_OUT_DANGEROUS, HELD_OUT_SAFE } from './held-out-cases';
import { REVIEW_DANGEROUS, REVIEW_SAFE } from './review-cases';
import { DANGEROUS_SYSTEM, SAFE_SYSTEM } from './system-cases';
import { DANGEROUS_HANDOFF, SAFE_HANDOFF } from './handoff-cases';

export const CORPUS: readonly CorpusCase[] = [
  ...SAFE_COMMANDS,
  ...SAFE_ACTIONS,
  ...SAFE_SKILLS,
  ...SAFE_POLICY_CASES,
  ...DANGEROUS_COMMANDS,
  ...DANGEROUS_ACTIONS,
  ...DANGEROUS_SKILLS,
  ...DANGEROUS_POLICY_CASES,
  ...HELD_OUT_SAFE,
  ...HELD_OUT_DANGEROUS,
  ...REVIEW_SAFE,
  ...REVIEW_DANGEROUS,
  ...SAFE_SYSTEM,
  ...DANGEROUS_SYSTEM,
  ...SAFE_HANDOFF,
  ...DANGEROUS_HANDOFF,
];
