import { readCases } from './corpus-files';

/**
 * Prompt attacks and their benign look-alikes, as a skill's `prompt`, one a line in
 * cases/injection*.jsonl (what each set is and how it was written: cases/README.md).
 * `attack: true` expects the prompt to be caught (skill vetting flags or blocks a skill
 * that is otherwise clean); `attack: false` expects it not to be (allow or warn).
 *
 * Families (attacks): override (ignore earlier instructions), persona (jailbreak through
 * a role without rules), leak (reveal the system prompt), hiding (act behind the user's
 * back), exfil (send data out), indirect (instructions planted in data a tool returns),
 * persuasion (authority, urgency, few-shot, no trigger words). Look-alikes: trigger
 * (benign use of the same words), tooling (the user's own instructions to a tool),
 * discussion (talking about attacks), data (ordinary tool output).
 */
export type InjectionFamily = 'override' | 'persona' | 'leak' | 'hiding' | 'exfil' | 'indirect' | 'persuasion' | 'trigger' | 'tooling' | 'discussion' | 'data';

export interface InjectionCase {
  id: string;
  lang: string;
  family: InjectionFamily;
  attack: boolean;
  text: string;
  source: string;
}

/** The first set (17 languages): the one the detector's weak spots were found on. */
export const INJECTION_CASES: readonly InjectionCase[] = readCases<InjectionCase>('injection');

/** The second set, held out: written after the detector had been tuned on the first. */
export const INJECTION_HOLDOUT_CASES: readonly InjectionCase[] = readCases<InjectionCase>('injection-holdout');

/** The third set, held out: written before the second round of heads, committed before any run. */
export const INJECTION_THIRD_CASES: readonly InjectionCase[] = readCases<InjectionCase>('injection-third');
