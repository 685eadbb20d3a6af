/**
 * Measures the guardrail engine on the public command corpus (libs/guardrails/corpus/*.jsonl)
 * and, in place (never copied into the repository), on GTFOBins and NL2Bash (GPL-3.0) and on
 * the malicious commands of dtrizna/slp (gathered from pentest guides, some unlicensed):
 *
 *   node -r ./scripts/train-text/register.js scripts/guardrails-corpus/eval.ts [mirrorDir] [--misses=<source>]
 *
 * Each command is authorized as an `exec` under the default policy. `allowed`: allow or
 * warn without approval; `stopped`: flag or block, or approval required; `blocked`: block.
 * Sources are split once, before any rule was written for this corpus: rules were written
 * while looking at the development sources only (tldr-pages, Atomic Red Team, stockpile,
 * reverse-shell-generator, PayloadsAllTheThings' Linux pages); the held-out
 * ones are measured, never looked at case by case. `--misses` prints the cases whose outcome
 * is not the expected one, and refuses a held-out source.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { authorizeAction, GuardrailVerdict, resolvePolicy } from '@cds/guardrails';
import type { CorpusRow } from './build';
import { git } from './build';
import { gtfobins, HeldOutRow, slpMalicious } from './heldout';
import { labelCommand } from './label';

const CORPUS = path.resolve(__dirname, '../../libs/guardrails/corpus');
export const DEVELOPMENT = new Set([
  'tldr-pages/tldr',
  'redcanaryco/atomic-red-team',
  'mitre/stockpile',
  '0dayCTF/reverse-shell-generator',
  'swisskyrepo/PayloadsAllTheThings',
]);
const policy = resolvePolicy();

interface Outcome {
  row: HeldOutRow;
  verdict: GuardrailVerdict;
}

function decide(row: Outcome['row']): Outcome {
  return { row, verdict: authorizeAction({ actionType: 'exec', command: row.command.slice(0, 8192), targetPath: '', requestedPermissions: [] }, policy) };
}

const stopped = (v: GuardrailVerdict) => v.action === 'flag' || v.action === 'block' || v.requiresApproval;

/**
 * GTFOBins writes its file functions with documented placeholders (CONTRIBUTING.md: input file
 * `/path/to/input-file`, output file `/path/to/output-file`), which name no file a reviewer
 * would stop. The same code pointed where an attacker points it: reading /etc/shadow, writing a
 * program under /usr/local/bin (reading there is ordinary, so only a write seen as one stops it).
 * Measured as a split of its own, so the held-out aggregate stays comparable.
 */
export const INSTANTIATED = { input: '/etc/shadow', output: '/usr/local/bin/x' } as const;
function gtfobinsInstantiated(rows: readonly Outcome['row'][]): Outcome['row'][] {
  return rows
    .filter((r) => r.family === 'gtfobins_file_read' || r.family === 'gtfobins_file_write')
    .map((r) => ({
      ...r,
      id: `${r.id}:instantiated`,
      source: 'GTFOBins, placeholders instantiated (measured only)',
      command: r.command.split('/path/to/input-file').join(INSTANTIATED.input).split('/path/to/output-file').join(INSTANTIATED.output),
    }));
}

/** NL2Bash commands as shipped in dtrizna/slp (GPL-3.0 upstream, measured only), labelled like the benign sources. */
function nl2bash(repo: string): Outcome['row'][] {
  return git(repo, 'show', 'HEAD:data/nl2bash.cm')
    .split('\n')
    .map((c) => c.trim())
    .filter(Boolean)
    .map((command, k) => {
      const l = labelCommand(command);
      return {
        id: `nl2bash:${k + 1}`,
        source: 'NL2Bash (GPL, measured only)',
        family: l.family === 'benign' ? 'everyday' : l.family,
        expect: l.family === 'benign' ? 'allow' : 'stop',
        command,
      };
    });
}

function pct(n: number, d: number): string {
  return d === 0 ? '–' : `${((100 * n) / d).toFixed(1)} %`;
}

function table(outcomes: Outcome[], key: (o: Outcome) => string): string[] {
  const groups = new Map<string, Outcome[]>();
  for (const o of outcomes) groups.set(key(o), [...(groups.get(key(o)) ?? []), o]);
  const lines = ['| group | expect | n | allowed | stopped | blocked |', '|---|---|---|---|---|---|'];
  for (const [k, list] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const n = list.length;
    const s = list.filter((o) => stopped(o.verdict)).length;
    const b = list.filter((o) => o.verdict.action === 'block').length;
    lines.push(`| ${k.replace(/\u0000.*$/, '')} | ${list[0].row.expect} | ${n} | ${pct(n - s, n)} (${n - s}) | ${pct(s, n)} (${s}) | ${pct(b, n)} (${b}) |`);
  }
  return lines;
}

function main(): void {
  const args = process.argv.slice(2);
  const mirror = args.find((a) => !a.startsWith('--')) ?? '/work/.mirror';
  const misses = args.find((a) => a.startsWith('--misses='))?.slice('--misses='.length);
  const rows: Outcome['row'][] = [];
  for (const f of fs
    .readdirSync(CORPUS)
    .filter((x) => x.endsWith('.jsonl'))
    .sort()) {
    for (const line of fs.readFileSync(path.join(CORPUS, f), 'utf8').split('\n')) if (line.trim()) rows.push(JSON.parse(line) as CorpusRow);
  }
  const gpl = [path.join(mirror, 'GTFOBins+GTFOBins.github.io', 'repo'), path.join(mirror, 'dtrizna+slp', 'repo')];
  if (fs.existsSync(gpl[0])) {
    const g = gtfobins(gpl[0]);
    rows.push(...g, ...gtfobinsInstantiated(g));
  }
  if (fs.existsSync(gpl[1])) rows.push(...nl2bash(gpl[1]), ...slpMalicious(gpl[1]));
  const outcomes = rows.map(decide);
  const split = (o: Outcome) =>
    DEVELOPMENT.has(o.row.source) ? 'development' : o.row.id.endsWith(':instantiated') ? 'held out, GTFOBins file functions instantiated' : 'held out';
  console.log(`# Guardrail command corpus, ${new Date().toISOString().slice(0, 10)}: ${outcomes.length} commands, exec under the default policy\n`);
  console.log('## By split and expectation\n');
  console.log(table(outcomes, (o) => `${split(o)}, expect ${o.row.expect}`).join('\n'));
  console.log('\n## By source and expectation\n');
  console.log(table(outcomes, (o) => `${o.row.source}\u0000${o.row.expect}`).join('\n'));
  console.log('\n## By source and family\n');
  // The expectation is part of the key (hidden from the label): a family may hold `stop` and `any` cases.
  console.log(table(outcomes, (o) => `${o.row.source} / ${o.row.family}\u0000${o.row.expect}`).join('\n'));
  if (misses) {
    if (!DEVELOPMENT.has(misses)) throw new Error(`${misses} is held out: its misses are not looked at`);
    console.log(`\n## Misses in ${misses}\n`);
    for (const o of outcomes.filter((x) => x.row.source === misses && x.row.expect !== 'any' && (x.row.expect === 'stop') !== stopped(x.verdict)))
      console.log(`- ${o.row.id} [${o.row.family}] expect ${o.row.expect}, got ${o.verdict.action}: ${o.row.command.replace(/\s+/g, ' ').slice(0, 240)}`);
  }
}

main();
