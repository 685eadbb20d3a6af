/**
 * The held-out attack sources measured in place (never copied into the repository): GTFOBins
 * (GPL-3.0) and dtrizna/slp's malicious commands (gathered from pentest guides, some unlicensed).
 * Read by eval.ts to measure them, and by build.ts only to drop a development row that equals
 * one of them (a count is printed, never a row).
 */
import * as yaml from 'js-yaml';
import type { CorpusRow } from './build';
import { git } from './git';

export type HeldOutRow = Pick<CorpusRow, 'id' | 'source' | 'family' | 'expect' | 'command'>;

/** GTFOBins (GPL-3.0, measured in place): the code of every function that gives a shell, reads, writes or escalates. */
export function gtfobins(repo: string): HeldOutRow[] {
  const rows: HeldOutRow[] = [];
  const files = git(repo, 'ls-tree', '-r', '--name-only', 'HEAD', '_gtfobins').split('\n').filter(Boolean);
  for (const file of files) {
    const text = git(repo, 'show', `HEAD:${file}`);
    const front = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? text;
    type Page = { functions?: Record<string, Array<{ code?: string }>> } | null;
    let doc: Page;
    try {
      doc = yaml.load(front) as Page;
    } catch {
      continue;
    }
    for (const [fn, entries] of Object.entries(doc?.functions ?? {})) {
      (entries ?? []).forEach((e, k) => {
        if (typeof e?.code === 'string' && e.code.trim() !== '')
          rows.push({
            id: `gtfobins:${file}:${fn}:${k}`,
            source: 'GTFOBins (GPL, measured only)',
            family: `gtfobins_${fn.replace(/-/g, '_')}`,
            expect: 'stop',
            command: e.code.trim(),
          });
      });
    }
  }
  return rows;
}

/** dtrizna/slp's malicious.cm: MIT in its repository, but gathered from pentest guides (one a blog with no licence), so measured only. */
export function slpMalicious(repo: string): HeldOutRow[] {
  return git(repo, 'show', 'HEAD:data/malicious.cm')
    .split('\n')
    .map((line, k) => ({ command: line.trim(), k }))
    .filter(({ command }) => command !== '')
    .map(({ command, k }) => ({
      id: `slp:${k + 1}`,
      source: 'dtrizna/slp malicious.cm (measured only)',
      family: 'attack_oneliner',
      expect: 'stop' as const,
      command,
    }));
}
