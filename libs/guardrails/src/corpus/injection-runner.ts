/**
 * Runs the prompt-attack corpus through skill vetting (a clean skill: official source,
 * checksum, signed, trusted maintainer, no permissions; only the prompt can raise risk),
 * with or without a model's scores, and tabulates catches and false alarms per family and
 * language. Pure: the model's scores are passed in.
 */
import { DEFAULT_GUARDRAIL_POLICY } from '../guardrail-policy';
import { GuardrailVerdict } from '../guardrail-verdict';
import { PromptModelScore, vetSkill } from '../skill-vetting';
import { InjectionCase } from './injection-cases';

export interface InjectionResult {
  c: InjectionCase;
  verdict: GuardrailVerdict;
  /** flag or block */
  caught: boolean;
}

export function runInjectionCase(c: InjectionCase, model?: PromptModelScore | null): InjectionResult {
  const verdict = vetSkill(
    {
      skillId: c.id,
      name: c.id,
      source: 'official',
      prompt: c.text,
      requestedPermissions: [],
      hasChecksum: true,
      signedPublisher: true,
      maintainerReputation: 'trusted',
    },
    { ...DEFAULT_GUARDRAIL_POLICY },
    null,
    model ?? null,
  );
  return { c, verdict, caught: verdict.action === 'flag' || verdict.action === 'block' };
}

export interface Tally {
  attacks: number;
  caught: number;
  benign: number;
  flagged: number;
}

const pct = (a: number, b: number) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(0)} %`);

export function tally(results: readonly InjectionResult[], key: (c: InjectionCase) => string): Map<string, Tally> {
  const out = new Map<string, Tally>();
  for (const r of results) {
    const k = key(r.c);
    const t = out.get(k) ?? { attacks: 0, caught: 0, benign: 0, flagged: 0 };
    if (r.c.attack) {
      t.attacks++;
      if (r.caught) t.caught++;
    } else {
      t.benign++;
      if (r.caught) t.flagged++;
    }
    out.set(k, t);
  }
  return out;
}

/** A markdown table of caught / flagged per key, with an English / other-languages / all footer. */
export function injectionTable(results: readonly InjectionResult[], by: 'family' | 'lang'): string {
  const rows = [...tally(results, (c) => c[by])].sort(([a], [b]) => a.localeCompare(b));
  const head = `| ${by === 'lang' ? 'language' : 'family'} | attacks caught | benign look-alikes flagged |\n|---|---|---|`;
  const line = (k: string, t: Tally) =>
    `| ${k} | ${t.caught}/${t.attacks}${t.attacks ? ` = ${pct(t.caught, t.attacks)}` : ''} | ${t.flagged}/${t.benign}${t.benign ? ` = ${pct(t.flagged, t.benign)}` : ''} |`;
  const total = (rs: readonly InjectionResult[]) => tally(rs, () => 'all').get('all') ?? { attacks: 0, caught: 0, benign: 0, flagged: 0 };
  return [
    head,
    ...rows.map(([k, t]) => line(k, t)),
    line('**English**', total(results.filter((r) => r.c.lang === 'en'))),
    line('**other languages**', total(results.filter((r) => r.c.lang !== 'en'))),
    line('**all**', total(results)),
  ].join('\n');
}
