/**
 * swisskyrepo/PayloadsAllTheThings (MIT): the command lines of its three Linux pages (privilege
 * escalation, persistence, evasion) and, since 2026-11-30, its Docker page, as they stood before
 * they moved to another repository (commit c852118ec897, 2024-01-11). Each fenced code block is cut into commands: one per line,
 * except that a line ending in `\`, a here-document and an `if … fi` stay whole; a line's prompt
 * (`$ `, `$> `, `user@host:dir$ `) is removed, and in a block that shows prompts the lines
 * without one are the program's output and are left out, as are comment lines, blocks that are
 * not shell (C, config files) and bare URLs. A command is expected `stop` (the page says what
 * each does to the system), except those listed in `PAYLOADS_ORDINARY`, which alone do nothing
 * a reviewer could tell from ordinary work or are not commands at all (`any`, each with why).
 * Lines that equal a GTFOBins entry or a line of dtrizna/slp's malicious commands after
 * normalisation are dropped by `eval.ts` (`dropHeldOutOverlap`): both are held out.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CorpusRow } from './build';
import { git } from './git';
import { gtfobins, slpMalicious } from './heldout';

export const PAYLOADS_COMMIT = 'c852118ec8971f5f7a457b9880f3c6b437865e0c';

const PAGES: ReadonlyArray<{ file: string; family: string }> = [
  { file: 'Methodology and Resources/Linux - Privilege Escalation.md', family: 'attack_privilege_escalation' },
  { file: 'Methodology and Resources/Linux - Persistence.md', family: 'attack_persistence' },
  { file: 'Methodology and Resources/Linux - Evasion.md', family: 'attack_defense_evasion' },
  { file: 'Methodology and Resources/Container - Docker Pentest.md', family: 'attack_container_escape' },
];

/** Code block languages that are not shell. */
const NOT_SHELL = new Set(['c', 'properties', 'ini', 'cpp']);
const PROMPT = /^(?:╰─\$|\$>?|[\w.-]+@[\w.-]+:[^$#\s]*[$#]|\/ #)\s+/;

export interface PayloadsUnit {
  file: string;
  line: number;
  section: string;
  command: string;
}

/** The commands of one page, in order. */
export function payloadsUnits(file: string, text: string): PayloadsUnit[] {
  const out: PayloadsUnit[] = [];
  const lines = text.split(/\r?\n/);
  let section = '';
  for (let k = 0; k < lines.length; k++) {
    const heading = /^#{2,4}\s+(.*)$/.exec(lines[k]);
    if (heading) section = heading[1].trim();
    const fence = /^(\s*)```\s*(\w*)/.exec(lines[k]);
    if (!fence) continue;
    const start = k + 1;
    let end = start;
    while (end < lines.length && !/^\s*```/.test(lines[end])) end++;
    const body = lines.slice(start, end).map((l) => l.replace(new RegExp(`^${fence[1]}`), '').replace(/\s+$/, ''));
    k = end;
    if (NOT_SHELL.has(fence[2].toLowerCase())) continue;
    const prompted = body.some((l) => PROMPT.test(l));
    for (let i = 0; i < body.length; i++) {
      let line = body[i];
      if (prompted) {
        if (!PROMPT.test(line)) continue;
        line = line.replace(PROMPT, '');
      }
      const trimmed = line.trim();
      if (trimmed === '' || trimmed.startsWith('#') || /^https?:\/\/\S+$/.test(trimmed)) continue;
      const first = start + i + 1;
      let command = trimmed;
      const heredoc = /<<-?\s*['"]?(\w+)['"]?/.exec(trimmed);
      if (heredoc) {
        while (i + 1 < body.length && body[i].trim() !== heredoc[1]) command += '\n' + body[++i];
      } else if (/^if\b/.test(trimmed)) {
        while (i + 1 < body.length && body[i].trim() !== 'fi') command += '\n' + body[++i];
      } else {
        while (command.endsWith('\\') && i + 1 < body.length) command += '\n' + body[++i];
      }
      out.push({ file, line: first, section, command: command.trim() });
    }
  }
  return out;
}

export function payloadsRows(repo: string, commit: string): CorpusRow[] {
  const rows: CorpusRow[] = [];
  for (const page of PAGES) {
    for (const u of payloadsUnits(page.file, git(repo, 'show', `${commit}:${page.file}`))) {
      const id = `payloads:${page.file
        .replace(/^Methodology and Resources\//, '')
        .replace(/\.md$/, '')
        .replace(/\s+/g, '_')}:${u.line}`;
      const why = PAYLOADS_ORDINARY[id] ?? PAYLOADS_DOCKER_ORDINARY[id];
      rows.push({
        id,
        source: 'swisskyrepo/PayloadsAllTheThings',
        commit,
        file: page.file,
        family: page.family,
        expect: why === undefined ? 'stop' : 'any',
        labelledBy: why === undefined ? `source: the page's section "${u.section}"` : `reviewed: ${why}`,
        command: u.command,
      });
    }
  }
  return rows;
}

/**
 * A command's text with what copies vary in removed: case, quotes, spacing, sudo and its user,
 * digits, and the name or path of a shell.
 */
export function normaliseCommand(command: string): string {
  return command
    .toLowerCase()
    .replace(/['"`]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^sudo (?:-u \S+ )?/, '')
    .replace(/(?:\/usr)?(?:\/bin\/)?\b(?:ba|da|z)?sh\b/g, 'sh')
    .replace(/\d+/g, '0');
}

/**
 * Drops the rows that equal, once normalised, a GTFOBins function's code (whole or one of its
 * lines) or a line of dtrizna/slp's malicious commands: both are held out, and slp's lines were
 * partly gathered from this very repository. Only the number dropped is returned.
 */
export function dropHeldOutOverlap(rows: CorpusRow[], mirror: string): { rows: CorpusRow[]; dropped: number } {
  const held = new Set<string>();
  const g = path.join(mirror, 'GTFOBins+GTFOBins.github.io', 'repo');
  const slp = path.join(mirror, 'dtrizna+slp', 'repo');
  if (!fs.existsSync(g) || !fs.existsSync(slp)) throw new Error('the GTFOBins and dtrizna/slp snapshots are needed to drop their overlap');
  for (const r of [...gtfobins(g), ...slpMalicious(slp)]) {
    held.add(normaliseCommand(r.command));
    for (const line of r.command.split('\n')) held.add(normaliseCommand(line));
  }
  const kept = rows.filter((r) => !held.has(normaliseCommand(r.command)));
  return { rows: kept, dropped: rows.length - kept.length };
}

const NOT_A_COMMAND = "not a command (a list of paths, a file's contents, a program's output or prose)";
const LOCAL_TOOL = 'runs a local script or program by name';

/** Reviewed: ordinary on its own, or not a command (row id -> why). */
export const PAYLOADS_ORDINARY: Readonly<Record<string, string>> = {
  ...lines('payloads:Linux_-_Privilege_Escalation', [61, 62, 71, 72], 'downloads a script without running it'),
  ...lines('payloads:Linux_-_Privilege_Escalation', [63, 64, 65, 73, 74, 80, 298, 478, 547, 631], LOCAL_TOOL),
  'payloads:Linux_-_Privilege_Escalation:168': 'greps the working directory for a word',
  'payloads:Linux_-_Privilege_Escalation:183': 'lists recently changed files (discovery)',
  'payloads:Linux_-_Privilege_Escalation:195': 'looks a word up in the file index (discovery)',
  ...lines(
    'payloads:Linux_-_Privilege_Escalation',
    [211, 225, 248, ...range(267, 281), 306, 307, 308, 309, 311, 382, 383, 441, 466, 492, 542, 543, 544, 546, 564, ...range(664, 670)],
    NOT_A_COMMAND,
  ),
  ...lines('payloads:Linux_-_Privilege_Escalation', [239, 240, 241, 731, 732, 735, 744], 'clones, unpacks or imports a project, or starts a container'),
  'payloads:Linux_-_Privilege_Escalation:247': 'greps the working directory for a key',
  'payloads:Linux_-_Privilege_Escalation:254': 'logs in over SSH with a key file',
  ...lines(
    'payloads:Linux_-_Privilege_Escalation',
    [283, 284, 285, 286, 287, 288, 289, 290, 291, 305, 320, 375, 423, 723, 757],
    'reads schedules, permissions or identity (discovery)',
  ),
  ...lines('payloads:Linux_-_Privilege_Escalation', [342, 629, 787], 'compiles a source file'),
  'payloads:Linux_-_Privilege_Escalation:343': 'makes a file in /tmp executable',
  'payloads:Linux_-_Privilege_Escalation:474': 'runs sudo with an unknown program (the page expects it to fail)',
  'payloads:Linux_-_Privilege_Escalation:519': 'writes a script in the working directory (what it does happens only when run)',
  'payloads:Linux_-_Privilege_Escalation:522': 'archives the working directory',
  ...lines('payloads:Linux_-_Privilege_Escalation', [532, 533, 534], 'lists writable files (discovery)'),
  ...lines('payloads:Linux_-_Privilege_Escalation', [556, 557, 558], 'prints a password hash'),
  'payloads:Linux_-_Privilege_Escalation:597': "lists a server's NFS exports (discovery)",
  'payloads:Linux_-_Privilege_Escalation:600': 'creates a directory in /tmp',
  'payloads:Linux_-_Privilege_Escalation:604': 'changes directory',
  'payloads:Linux_-_Privilege_Escalation:607': 'copies a program into the working directory',
  ...lines('payloads:Linux_-_Privilege_Escalation', [620, 637, 641, 652], "prints a program's libraries"),
  'payloads:Linux_-_Privilege_Escalation:650': 'copies a library into a directory under /var/tmp',
  'payloads:Linux_-_Privilege_Escalation:680': 'runs a container with the working directory mounted',
  'payloads:Linux_-_Privilege_Escalation:745': 'opens a shell inside a container',
  'payloads:Linux_-_Privilege_Escalation:756': 'sets an environment variable',
  ...lines('payloads:Linux_-_Persistence', [24, 25, 26], "listens on a port with no program attached (the attacker's side)"),
  ...lines('payloads:Linux_-_Persistence', [40, 59, 96], 'sets a shell variable (nothing runs)'),
  'payloads:Linux_-_Persistence:42': 'compiles a source file',
  ...lines('payloads:Linux_-_Persistence', [43, 69], 'deletes a file in a temporary directory'),
  'payloads:Linux_-_Persistence:75': 'makes a file under the home directory executable',
  ...lines(
    'payloads:Linux_-_Persistence',
    [83, 84, 85, 86, 88],
    'a line of a script that alone prints, waits, saves a variable or runs sudo with its arguments',
  ),
  ...lines('payloads:Linux_-_Persistence', range(114, 122), NOT_A_COMMAND),
  ...lines('payloads:Linux_-_Evasion', [17, 69, 71, 74, 94, 95, 104, 106], 'creates, writes or prints a file in the working directory, or reads the time'),
  'payloads:Linux_-_Evasion:42': NOT_A_COMMAND,
  ...lines('payloads:Linux_-_Evasion', [85, 88, 91, 96], "sets a file's times (ordinary alone: tldr-pages shows it as everyday use)"),
};

const DOCKER = 'payloads:Container_-_Docker_Pentest';
/** Reviewed, the Docker page (added 2026-11-30): ordinary on its own, or not a command. */
export const PAYLOADS_DOCKER_ORDINARY: Readonly<Record<string, string>> = {
  ...lines(DOCKER, [22, 23, 27, 28, 29, 30, 49], 'runs a scanner or a local script by name'),
  [`${DOCKER}:41`]: 'lists the containers through the docker socket (discovery)',
  ...lines(DOCKER, [65, 67, 173], 'prints a message, the identity or the mounts'),
  [`${DOCKER}:78`]: 'scans a port',
  [`${DOCKER}:88`]: 'sets an environment variable',
  [`${DOCKER}:91`]: 'lists the containers of a docker daemon',
  [`${DOCKER}:92`]: 'opens a shell inside a container',
  ...lines(DOCKER, [106, 107, 110, 111, 112, 114, 117, 123, 124, 133], 'lists, pulls or logs in to an image registry'),
  [`${DOCKER}:125`]: 'runs a shell in a container of an image',
  [`${DOCKER}:131`]: "reads the cloud instance's service-account e-mail",
  [`${DOCKER}:159`]: 'sets a shell variable from a file',
  [`${DOCKER}:164`]: 'makes a file executable',
  ...lines(DOCKER, [201, 202], 'builds or runs an image'),
  ...lines(DOCKER, [209, 210, 211, 212], NOT_A_COMMAND),
};

/** The same reason for several lines of one page: `{ 'page:line': reason, … }`. */
function lines(page: string, numbers: readonly number[], reason: string): Record<string, string> {
  return Object.fromEntries(numbers.map((n) => [`${page}:${n}`, reason]));
}

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_x, k) => a + k);
}
