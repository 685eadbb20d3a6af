/**
 * MITRE Caldera's stockpile abilities for Linux and macOS run by `sh` or `bash`, labelled by
 * the ATT&CK tactic each ability declares. Discovery is reported without an expectation (as
 * for Atomic Red Team); so are the abilities listed below, whose command alone does nothing
 * a reviewer could tell from ordinary work (each with its reason). Caldera fills `#{fact}`
 * placeholders at run time; here the server is `http://caldera.example:8888`, a remote SSH
 * target `deploy@10.0.0.7`, and any other fact `FACT_<name>`.
 */
import * as yaml from 'js-yaml';
import type { CorpusRow } from './build';
import { git } from './build';

interface Ability {
  id: string;
  name: string;
  tactic: string;
  platforms?: Record<string, Record<string, { command?: string } | null>>;
}

/** Reviewed: ordinary on its own (ability id -> why). */
export const STOCKPILE_ORDINARY: Readonly<Record<string, string>> = {
  '02de522f-7e0a-4544-8afc-0c195f400f5f': 'installs a package and lists the SSH config hosts',
  '10fad81e-3f68-47be-83b6-fbee7711c6a9': 'runs a local script with file-search options',
  '1f7ff232-ebf8-42bf-a3c4-657855794cfe': 'greps files in a home directory for e-mail addresses',
  '2f90d4de-2612-4468-9251-b220e3727452': 'archives a git repository',
  '300157e5-f4ad-4569-b533-9d1fa0e74d74': 'archives a directory',
  '30a8cf10-73dc-497c-8261-a64cc9e91505': 'archives and encrypts a directory with a passphrase',
  '316251ed-6a28-4013-812b-ddf5b5b007f8': 'takes screenshots',
  '4e97e699-93d7-4040-b5a3-2e906a58199e': 'copies files into a directory',
  '6469befa-748a-4b9c-a96d-f191fde47d89': 'creates a directory',
  '720a3356-eee1-4015-9135-0fc08f7eb2d5': 'lists git repositories under /home',
  '90c2efaa-8205-480d-8bb6-61d90dbaf81b': 'finds files by extension',
  'b007fe0c-c6b0-4fda-915c-255bbc070de2': 'prints the clipboard',
  'd69e8660-62c9-431e-87eb-8cf6bd4e35cf': 'greps files in a home directory for IP addresses',
  '9647fabe-acd9-44e8-a874-186125705142': 'opens a telnet connection and quits',
  '1b4fb81c-8090-426c-93ab-0a633e7a16a7': 'captures packets for five seconds',
  '36eecb80-ede3-442b-8774-956e906aff02': 'sleeps',
  '5f844ac9-5f24-4196-a70d-17f0bd44a934': 'deletes a file in the working directory',
  'b1d41972-3ad9-4aa1-8f7f-05f049a2980e': 'starts a local program in the background',
  'de52784d-4de6-4d4e-b79e-e7b68fe037fb': 'runs a local AppleScript file',
  '5c5b0392-1daa-45e1-967c-2f361ce78849': 'archives, encrypts and splits a directory',
  'ba0deadb-97ac-4a4c-aa81-21912fc90980': 'copies an object between two S3 buckets',
  '2fe2d5e6-7b06-4fc0-bf71-6966a1226731': 'runs a local script',
  '47d08617-5ce1-424a-8cc5-c9c978ce6bf9': 'writes a text file in the working directory',
  '55f9600a-756f-496b-b27f-682052dc429c': 'runs a local program',
  '4908fdc4-74fc-4d7c-8935-26d11ad26a8d': 'copies a file to another machine with scp',
};

function fillFacts(command: string): string {
  return command.replace(/#\{([^}]{1,200})\}/g, (_m, fact: string) => {
    if (/^(?:server|app\.contact\.http)$/.test(fact)) return 'http://caldera.example:8888';
    if (fact === 'remote.ssh.cmd') return 'deploy@10.0.0.7';
    return `FACT_${fact.replace(/\[.*$/, '').replace(/[^A-Za-z0-9]+/g, '_')}`;
  });
}

export function stockpileAbilities(repo: string, commit: string): CorpusRow[] {
  const rows: CorpusRow[] = [];
  const seen = new Set<string>();
  const files = git(repo, 'ls-tree', '-r', '--name-only', commit, 'data/abilities')
    .split('\n')
    .filter((f) => f.endsWith('.yml'));
  for (const file of files) {
    for (const ab of (yaml.load(git(repo, 'show', `${commit}:${file}`)) as Ability[] | null) ?? []) {
      for (const platform of ['linux', 'darwin']) {
        for (const [shell, spec] of Object.entries(ab.platforms?.[platform] ?? {})) {
          const raw = spec?.command?.trim();
          if ((shell !== 'sh' && shell !== 'bash') || !raw) continue;
          const command = fillFacts(raw);
          if (seen.has(command)) continue;
          seen.add(command);
          const ordinary = STOCKPILE_ORDINARY[ab.id];
          rows.push({
            id: `stockpile:${ab.id}:${platform}`,
            source: 'mitre/stockpile',
            commit,
            file,
            family: `attack_${ab.tactic.replace(/-/g, '_')}`,
            expect: ab.tactic === 'discovery' || ordinary ? 'any' : 'stop',
            labelledBy: ordinary
              ? `reviewed: ordinary on its own (${ordinary}); tactic "${ab.tactic}"`
              : `source: ATT&CK tactic "${ab.tactic}" of the ability (${ab.name})`,
            command,
          });
        }
      }
    }
  }
  return rows;
}
