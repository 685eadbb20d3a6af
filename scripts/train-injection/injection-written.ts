/**
 * Training rows composed from the written parts (injection-written-parts*.ts), source
 * `written`, 17 languages. Benign: each short task, a role followed by a task, the user's own
 * rules, talk about attacks. Attacks: an override with a hijack goal, a persona without rules
 * (with a name from NAMES), a prompt-leak request, a note to the AI planted in a carrier text,
 * a claim of authority. Combinations are picked by a hash, so the set is fixed.
 */
import { createHash } from 'crypto';
import { InjectionLabel, InjectionRow } from './injection-sources';
import { PARTS_A, WrittenParts } from './injection-written-parts';
import { PARTS_B } from './injection-written-parts-b';

export const WRITTEN_PARTS: Record<string, WrittenParts> = { ...PARTS_A, ...PARTS_B };
const NAMES = ['ZENO', 'APEX', 'KAI-9', 'Orion', 'Nexus', 'Rogue', 'VOLT', 'Omega'];
const h = (s: string) => parseInt(createHash('sha1').update(s).digest('hex').slice(0, 8), 16);

export function writtenRows(): InjectionRow[] {
  const out: InjectionRow[] = [];
  for (const [lang, p] of Object.entries(WRITTEN_PARTS)) {
    const add = (text: string, label: InjectionLabel) => out.push({ text, label, source: 'written', lang });
    const sep = lang === 'ja' || lang === 'zh' ? '' : ' ';
    // Benign.
    p.tasks.forEach((t) => add(t, 'benign'));
    p.roles.forEach((r, i) => p.tasks.filter((_, j) => (i + j) % 3 === 0).forEach((t) => add(`${r}${sep}${t}`, 'benign')));
    p.rules.forEach((r, i) => add(`${p.roles[i % p.roles.length]}${sep}${r}`, 'benign'));
    p.rules.forEach((r) => add(r, 'benign'));
    p.talk.forEach((t) => add(t, 'benign'));
    // Attacks.
    p.ignore.forEach((o, i) => p.goals.forEach((g, j) => (i + j) % 2 === 0 && add(`${o}${sep}${g}`, 'injection')));
    p.jail.forEach((j, i) =>
      p.stay.forEach((s, k) => {
        const name = NAMES[h(`${lang}${i}${k}`) % NAMES.length];
        add(`${j}${sep}${s}`.replace(/\{N\}/g, name), 'jailbreak');
      }),
    );
    p.leak.forEach((l) => add(l, 'injection'));
    p.carriers.forEach((c, i) =>
      p.note.forEach((n, k) => {
        const goal = p.goals[h(`${lang}${i}${k}`) % p.goals.length];
        const planted = `${n}${sep}${goal}`;
        add(k === 1 ? `${planted}\n${c}` : `${c}${sep}${k === 2 ? `[${planted}]` : planted}`, 'injection');
      }),
    );
    p.authority.forEach((a) => add(a, 'jailbreak'));
  }
  return out;
}
