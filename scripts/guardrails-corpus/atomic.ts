/**
 * Atomic Red Team tests for Linux and macOS run by `sh` or `bash`: each test's command with
 * its input arguments set to their defaults, labelled by the ATT&CK tactic the project's own
 * index gives it. Discovery tests (listing users, processes, network facts) are reported
 * without an expectation: reading harmless system facts is meant to stay allowed.
 */
import * as yaml from 'js-yaml';
import type { CorpusRow } from './build';
import { git } from './build';
import { ATOMIC_ORDINARY } from './atomic-review';

interface AtomicTest {
  name: string;
  auto_generated_guid: string;
  input_arguments?: Record<string, { default?: unknown }>;
  executor?: { name?: string; command?: string };
}

function indexRows(repo: string, commit: string, platform: string): Array<{ tactic: string; technique: string; guid: string; executor: string }> {
  const csv = git(repo, 'show', `${commit}:atomics/Indexes/Indexes-CSV/${platform}-index.csv`);
  return csv
    .split('\n')
    .slice(1)
    .map((line) => {
      const cells = line.split(',');
      return { tactic: cells[0], technique: cells[1], guid: cells[cells.length - 2], executor: cells[cells.length - 1]?.trim() };
    })
    .filter((r) => r.technique && (r.executor === 'sh' || r.executor === 'bash'));
}

function withDefaults(command: string, args: AtomicTest['input_arguments']): string {
  return command.replace(/#\{([\w-]+)\}/g, (m, name: string) => {
    const v = args?.[name]?.default;
    return v === undefined || v === null ? m : String(v);
  });
}

export function atomicTests(repo: string, commit: string): CorpusRow[] {
  const rows: CorpusRow[] = [];
  const seen = new Set<string>();
  const files = new Map<string, AtomicTest[]>();
  for (const platform of ['linux', 'macos']) {
    for (const r of indexRows(repo, commit, platform)) {
      if (seen.has(r.guid)) continue;
      seen.add(r.guid);
      const file = `atomics/${r.technique}/${r.technique}.yaml`;
      let tests = files.get(file);
      if (!tests) {
        tests = (yaml.load(git(repo, 'show', `${commit}:${file}`)) as { atomic_tests: AtomicTest[] }).atomic_tests;
        files.set(file, tests);
      }
      const t = tests.find((x) => x.auto_generated_guid === r.guid);
      const command = t?.executor?.command?.trim();
      if (!t || !command) continue;
      const ordinary = ATOMIC_ORDINARY[r.guid];
      const discovery = r.tactic === 'discovery';
      rows.push({
        id: `atomic:${r.technique}:${r.guid}`,
        source: 'redcanaryco/atomic-red-team',
        commit,
        file,
        family: `attack_${r.tactic.replace(/-/g, '_')}`,
        expect: discovery || ordinary ? 'any' : 'stop',
        labelledBy: ordinary
          ? `reviewed: ordinary on its own (${ordinary}); tactic "${r.tactic}"`
          : `source: ATT&CK tactic "${r.tactic}" in atomics/Indexes/Indexes-CSV/${platform}-index.csv (${t.name})`,
        command: withDefaults(command, t.input_arguments),
      });
    }
  }
  return rows;
}
