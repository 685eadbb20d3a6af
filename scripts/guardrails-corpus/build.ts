/**
 * Builds the public command corpus of the guardrail engine (libs/guardrails/corpus/) from
 * snapshots of public repositories (git directories, e.g. those the session's `fetch`
 * brought under /work/.mirror), each read at a recorded commit:
 *
 *   node -r ./scripts/train-text/register.js scripts/guardrails-corpus/build.ts [mirrorDir] [--only=<file>.jsonl]
 *
 * Every case says where it comes from (repository, commit, file), its family and the
 * outcome expected (`allow`: allowed without approval; `stop`: flagged, blocked or
 * approval required; `any`: reported, no expectation), and how it was labelled.
 * Sources that may not be copied here (GPL: GTFOBins, NL2Bash; gathered from unlicensed
 * material: dtrizna/slp's malicious.cm) are never written here: eval.ts measures them in place.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Family, labelCommand } from './label';
import { atomicTests } from './atomic';
import { git } from './git';
import { dropHeldOutOverlap, PAYLOADS_COMMIT, payloadsRows } from './payloads';
import { reverseShells } from './revshells';
import { stockpileAbilities } from './stockpile';

export interface CorpusRow {
  id: string;
  source: string;
  commit: string;
  file: string;
  family: Family | string;
  expect: 'allow' | 'stop' | 'any';
  labelledBy: string;
  command: string;
}

const OUT = path.resolve(__dirname, '../../libs/guardrails/corpus');
const MAX_COMMAND = 8192;

export { git };

/** A deterministic sample: the `n` rows whose hashed id is smallest. */
function sample<T extends { id: string }>(rows: T[], n: number): T[] {
  const key = (r: T) => createHash('sha256').update(r.id).digest('hex');
  return rows.length <= n ? rows : [...rows].sort((a, b) => (key(a) < key(b) ? -1 : 1)).slice(0, n);
}

function labelled(base: Omit<CorpusRow, 'family' | 'expect' | 'labelledBy'>): CorpusRow {
  const l = labelCommand(base.command);
  return { ...base, family: l.family === 'benign' ? 'everyday' : l.family, expect: l.family === 'benign' ? 'allow' : 'stop', labelledBy: `label.ts: ${l.why}` };
}

/** tldr `{{placeholder}}`: the first option of `{{[-a|--all]}}`, the text of the others. */
function fillTldr(cmd: string): string {
  return cmd.replace(/\{\{(.*?)\}\}/g, (_m, inner: string) => {
    let t = inner.replace(/\[([^\]|]*)\|[^\]]*\]/g, '$1').replace(/\s*\.\.\.$/, '');
    if (/^\[.*\]$/.test(t)) t = t.slice(1, -1);
    return t;
  });
}

function tldr(repo: string, commit: string): CorpusRow[] {
  const rows: CorpusRow[] = [];
  const files = git(repo, 'ls-tree', '-r', '--name-only', commit, 'pages/common', 'pages/linux', 'pages/osx')
    .split('\n')
    .filter((f) => f.endsWith('.md'));
  for (const file of files) {
    const lines = git(repo, 'show', `${commit}:${file}`).split('\n');
    lines.forEach((line, k) => {
      const m = /^`(.+)`$/.exec(line.trim());
      if (!m) return;
      rows.push(labelled({ id: `tldr:${file}:${k + 1}`, source: 'tldr-pages/tldr', commit, file, command: fillTldr(m[1]) }));
    });
  }
  return rows;
}

/** cheat sheets: `# comment` lines describe, the lines after them are commands. */
function sheetLines(repo: string, commit: string, files: string[], source: string, prefix: string): CorpusRow[] {
  const rows: CorpusRow[] = [];
  for (const file of files) {
    const tool = path.basename(file).toLowerCase();
    let text: string;
    try {
      text = git(repo, 'show', `${commit}:${file}`);
    } catch {
      continue;
    }
    const lines = text.split('\n');
    let inFrontMatter = lines[0]?.trim() === '---';
    lines.forEach((raw, k) => {
      const line = raw.trim();
      if (inFrontMatter) {
        if (k > 0 && line === '---') inFrontMatter = false;
        return;
      }
      // A command of the sheet's own tool (optionally through sudo): prose and output are left out.
      const first =
        line
          .replace(/^(?:sudo|\$)\s+/, '')
          .split(/\s+/)[0]
          ?.toLowerCase() ?? '';
      if (line === '' || line.startsWith('#') || first !== tool || line.length > 400) return;
      const command = line.replace(/^\$\s+/, '').replace(/<([^<>\s]{1,40})>/g, '$1');
      rows.push(labelled({ id: `${prefix}:${file}:${k + 1}`, source, commit, file, command }));
    });
  }
  return rows;
}

function ohmyzsh(repo: string, commit: string): CorpusRow[] {
  const rows: CorpusRow[] = [];
  const files = git(repo, 'ls-tree', '-r', '--name-only', commit, 'plugins')
    .split('\n')
    .filter((f) => f.endsWith('.plugin.zsh'));
  for (const file of files) {
    git(repo, 'show', `${commit}:${file}`)
      .split('\n')
      .forEach((line, k) => {
        const m = /^\s*alias\s+(?:-g\s+)?[\w.:+-]+=(['"])(.+)\1\s*$/.exec(line);
        if (!m) return;
        rows.push(labelled({ id: `ohmyzsh:${file}:${k + 1}`, source: 'ohmyzsh/ohmyzsh', commit, file, command: m[2] }));
      });
  }
  return rows;
}

/**
 * `commit`: read there instead of the snapshot's HEAD (a page that has since moved away);
 * `heldOutOverlap`: drop rows equal to a held-out source's (see payloads.ts).
 */
const SOURCES: Array<{ dir: string; out: string; n: number; commit?: string; heldOutOverlap?: boolean; build: (repo: string, commit: string) => CorpusRow[] }> =
  [
    { dir: 'tldr-pages+tldr', out: 'tldr.jsonl', n: 3000, build: tldr },
    { dir: 'redcanaryco+atomic-red-team', out: 'atomic-red-team.jsonl', n: 100_000, build: atomicTests },
    {
      dir: 'cheat+cheatsheets',
      out: 'cheatsheets.jsonl',
      n: 1500,
      build: (repo, commit) =>
        sheetLines(
          repo,
          commit,
          git(repo, 'ls-tree', '--name-only', commit)
            .split('\n')
            .filter((f) => f && !f.startsWith('.') && !f.includes('.')),
          'cheat/cheatsheets',
          'cheatsheets',
        ),
    },
    {
      dir: 'chubin+cheat.sheets',
      out: 'cheat.sheets.jsonl',
      n: 1500,
      build: (repo, commit) =>
        sheetLines(
          repo,
          commit,
          git(repo, 'ls-tree', '--name-only', commit, 'sheets/')
            .split('\n')
            .filter((f) => f && !path.basename(f).startsWith('_')),
          'chubin/cheat.sheets',
          'cheat.sheets',
        ),
    },
    { dir: 'ohmyzsh+ohmyzsh', out: 'ohmyzsh.jsonl', n: 1500, build: ohmyzsh },
    { dir: 'mitre+stockpile', out: 'stockpile.jsonl', n: 100_000, build: stockpileAbilities },
    { dir: '0dayCTF+reverse-shell-generator', out: 'revshells.jsonl', n: 100_000, build: reverseShells },
    { dir: 'swisskyrepo+PayloadsAllTheThings', out: 'payloads.jsonl', n: 100_000, commit: PAYLOADS_COMMIT, heldOutOverlap: true, build: payloadsRows },
  ];

function main(): void {
  const args = process.argv.slice(2);
  const mirror = args.find((a) => !a.startsWith('--')) ?? '/work/.mirror';
  // `--only=stockpile.jsonl`: rebuild one file, leaving the others at the commits they were built from.
  const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  fs.mkdirSync(OUT, { recursive: true });
  for (const s of SOURCES.filter((x) => only === undefined || x.out === only)) {
    const repo = path.join(mirror, s.dir, 'repo');
    const commit = git(repo, 'rev-parse', s.commit ?? 'HEAD').trim();
    let built = s.build(repo, commit);
    let dropped = '';
    if (s.heldOutOverlap) {
      const d = dropHeldOutOverlap(built, mirror);
      built = d.rows;
      dropped = `, ${d.dropped} equal to a held-out command dropped`;
    }
    const rows = sample(
      built.filter((r) => r.command.length <= MAX_COMMAND && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(r.command)),
      s.n,
    ).sort((a, b) => (a.id < b.id ? -1 : 1));
    fs.writeFileSync(path.join(OUT, s.out), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const byFamily = new Map<string, number>();
    for (const r of rows) byFamily.set(String(r.family), (byFamily.get(String(r.family)) ?? 0) + 1);
    console.log(`${s.out}: ${rows.length} cases at ${commit.slice(0, 12)} (${[...byFamily].map(([f, n]) => `${f} ${n}`).join(', ')})${dropped}`);
  }
}

if (require.main === module) main();
