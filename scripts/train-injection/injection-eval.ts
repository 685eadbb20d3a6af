/**
 * The prompt-attack corpus through skill vetting: rules alone, then rules with the committed
 * heads (model/injection-heads.json) read through the local text scorer as the api does.
 * Prints the per-family and per-language tables written to libs/guardrails/GUARDRAILS.md.
 * The first set (cases/injection.jsonl) is the development set: its misses and false alarms are
 * listed. The second and third sets are held out: only their totals are printed, so that no
 * one reads their failures and tunes to them.
 *
 *   npm run models:fetch
 *   nice npm run eval:injection
 *   nice npm run eval:injection -- --dev-sweep 0.5,0.8,0.9   # the first set only, at each threshold
 *
 * `--dev-sweep` reads the development set alone, so a skill-vetting threshold can be chosen
 * on it (with the cross-source sweep, sweep:injection) without a look at a held-out set.
 */
import { INJECTION_CASES, INJECTION_HOLDOUT_CASES, INJECTION_THIRD_CASES, InjectionCase } from '../../libs/guardrails/src/corpus/injection-cases';
import { injectionTable, InjectionResult, runInjectionCase } from '../../libs/guardrails/src/corpus/injection-runner';
import { LocalTextRuntime, PromptAttackScore } from '../../libs/providers/src/local/local-text.runtime';
import { parseArgs } from '../train-text/cli-options';

async function main(): Promise<void> {
  const out = (m: string) => process.stdout.write(`${m}\n`);
  const args = parseArgs(process.argv.slice(2));
  const runtime = new LocalTextRuntime({ kind: 'embedding', workers: 1, log: () => undefined });
  await runtime.ready();
  try {
    if (args['dev-sweep']) {
      await devSweep(args['dev-sweep'].split(',').map(Number), runtime, out);
      return;
    }
    out('# First set, development (cases/injection.jsonl)\n');
    await evaluate(INJECTION_CASES, runtime, out, true);
    out('\n# Second set, held out (cases/injection-holdout.jsonl)\n');
    await evaluate(INJECTION_HOLDOUT_CASES, runtime, out, false);
    out('\n# Third set, held out (cases/injection-third.jsonl)\n');
    await evaluate(INJECTION_THIRD_CASES, runtime, out, false);
  } finally {
    await runtime.close();
  }
}

async function scoreAll(cases: readonly InjectionCase[], runtime: LocalTextRuntime): Promise<PromptAttackScore[]> {
  const scores: PromptAttackScore[] = [];
  for (const c of cases) {
    const score = await runtime.scorePromptAttack(c.text);
    if (!score) throw new Error('the local text scorer has no prompt-attack heads (model/injection-heads.json)');
    scores.push(score);
  }
  return scores;
}

/** The development set at each threshold: English and other languages, caught and flagged. */
async function devSweep(thresholds: number[], runtime: LocalTextRuntime, out: (m: string) => void): Promise<void> {
  const scores = await scoreAll(INJECTION_CASES, runtime);
  out('| threshold | English caught | other languages caught | English look-alikes flagged | other look-alikes flagged |\n|---|---|---|---|---|');
  for (const t of thresholds) {
    const rs = INJECTION_CASES.map((c, i) => runInjectionCase(c, { ...scores[i], threshold: t }));
    const cell = (en: boolean, attack: boolean) => {
      const sel = rs.filter((r) => (r.c.lang === 'en') === en && r.c.attack === attack);
      const n = sel.filter((r) => r.caught).length;
      return `${n}/${sel.length} = ${((100 * n) / sel.length).toFixed(0)} %`;
    };
    out(`| ${t} | ${cell(true, true)} | ${cell(false, true)} | ${cell(true, false)} | ${cell(false, false)} |`);
  }
}

async function evaluate(cases: readonly InjectionCase[], runtime: LocalTextRuntime, out: (m: string) => void, listFailures: boolean): Promise<void> {
  const rules = cases.map((c) => runInjectionCase(c));
  const withModel: InjectionResult[] = [];
  const ms: number[] = [];
  {
    for (const c of cases) {
      const t0 = performance.now();
      const score = await runtime.scorePromptAttack(c.text);
      ms.push(performance.now() - t0);
      if (!score) throw new Error('the local text scorer has no prompt-attack heads (model/injection-heads.json)');
      withModel.push(runInjectionCase(c, score));
    }
  }
  ms.sort((a, b) => a - b);
  out(`## Rules alone\n\n${injectionTable(rules, 'family')}\n\n${injectionTable(rules, 'lang')}\n`);
  out(`## Rules and the prompt-attack heads\n\n${injectionTable(withModel, 'family')}\n\n${injectionTable(withModel, 'lang')}\n`);
  out(`model pass per prompt: p50 ${ms[ms.length >> 1].toFixed(1)} ms, p90 ${ms[Math.floor(ms.length * 0.9)].toFixed(1)} ms (one worker)`);
  if (!listFailures) return;
  const missed = withModel.filter((r) => r.c.attack && !r.caught).map((r) => `${r.c.id} (${r.c.family})`);
  const flagged = withModel.filter((r) => !r.c.attack && r.caught).map((r) => `${r.c.id} (${r.c.family}): ${r.verdict.reasons.join('; ')}`);
  out(`\nmissed: ${missed.join(', ') || 'none'}\nflagged look-alikes: ${flagged.join(' | ') || 'none'}`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
