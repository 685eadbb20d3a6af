/**
 * System zone findings of a parsed command and of an action's targetPath: each path a
 * command changes (or reads, where reading is itself the harm: raw disks, memory, input
 * devices) is looked up in the zone map, through `..`, globs and the script's own `cd`.
 */
import { CompiledPolicy } from './compiled-policy';
import { RiskFinding } from './guardrail-verdict';
import { hasPathGlob } from './paths/path-glob';
import { normalizePath, NormalizedPath } from './paths/path-normalizer';
import { CommandRisk, Severity } from './rules/command-risk';
import { ZoneHit, zoneHit } from './rules/system-zones';
import { CHANGING_VERBS, pathActions, PathVerb } from './shell/path-actions';
import { UNKNOWN_EXPANSION } from './shell/shell-lexer';
import { canonicalWithWrappers, ParsedShell, ShellCommand } from './shell/shell-parser';

const POINTS: Readonly<Record<Severity, number>> = { critical: 100, high: 50, medium: 25 };

/** Programs that read a file's content out (a raw disk or memory read through them reads everything). */
const CONTENT_READERS = new Set([
  'cat',
  'dd',
  'cp',
  'head',
  'tail',
  'strings',
  'xxd',
  'hexdump',
  'od',
  'less',
  'more',
  'gzip',
  'bzip2',
  'xz',
  'zstd',
  'lz4',
  'pv',
  'base64',
  'tar',
  'nc',
  'ncat',
  'socat',
  'scp',
  'rsync',
  'grep',
  'cmp',
  'sha256sum',
  'md5sum',
  'split',
  'tee',
  'evtest',
  'ffmpeg',
  'arecord',
]);

const VERB_WORDS: Readonly<Record<PathVerb, string>> = {
  read: 'reads',
  list: 'lists',
  write: 'writes',
  copy_into: 'copies a file to',
  move_into: 'moves a file to',
  move_away: 'moves away',
  delete: 'deletes',
  truncate: 'empties',
  permissions: 'changes the permissions or owner of',
  mount: 'mounts or unmounts',
};

export interface ZoneFinding extends RiskFinding {
  /** The command and path it was found on, so other path findings can stand aside. */
  command: ShellCommand | null;
  raw: string;
}

/** A name only known at run time reads `$(…)`, as in the command's snippet (NFKC turns the marker's ellipsis into dots). */
const shownUnknown = (text: string) => text.replace(/\u27e8(?:\u2026|\.\.\.)\u27e9/g, '$(\u2026)');

function describe(what: string, rawText: string, np: NormalizedPath, verb: PathVerb, hit: ZoneHit): string {
  const raw = shownUnknown(rawText);
  const display = shownUnknown(np.display);
  const resolved = hasPathGlob(np.key) ? ', a glob that can match a path' : display !== raw ? ` (resolves to ${display})` : '';
  return `${what} ${VERB_WORDS[verb]} "${raw.length > 100 ? `${raw.slice(0, 99)}\u2026` : raw}"${resolved}, in ${hit.zone.label} (${hit.where})`;
}

function finding(hit: ZoneHit, verb: PathVerb, reason: string, command: ShellCommand | null, raw: string): ZoneFinding {
  return {
    category: CHANGING_VERBS.has(verb) ? 'system_change' : 'sensitive_path',
    points: POINTS[hit.severity],
    forceBlock: hit.severity === 'critical',
    reason,
    command,
    raw,
  };
}

const RANK: Readonly<Record<Severity, number>> = { medium: 1, high: 2, critical: 3 };

/**
 * Zone findings of every simple command. A built-in rule that already judged the command
 * as gravely (`rm -rf /etc`, a cron file written, a log erased) speaks for it alone.
 */
export function commandZoneFindings(parsed: ParsedShell, risks: readonly CommandRisk[], policy: CompiledPolicy, label: string): ZoneFinding[] {
  const judged = new Map<ShellCommand, number>();
  for (const r of risks) judged.set(r.command, Math.max(judged.get(r.command) ?? 0, RANK[r.severity]));
  const out: ZoneFinding[] = [];
  for (const c of parsed.commands) {
    for (const action of pathActions(c)) {
      // `/proc/$PID/mem`: whichever process it is, its memory.
      const raw = action.raw.replace(/^(\/proc\/)(?:\$\{?\w+\}?|\u27e8\u2026\u27e9)(\/mem)$/, '$11$2');
      const verb = action.verb;
      if (raw === '' || unknownDirectory(raw) || raw.startsWith('-') || raw.includes('://')) continue;
      // Naming a disk is not reading it (`lsblk /dev/sda`, `echo /dev/sda`): only programs that read contents count.
      if (verb === 'read' && !CONTENT_READERS.has(c.unwrapped.program)) continue;
      const np = normalizePath(raw, c.cwd);
      const hit = zoneHit(np, verb, policy.zones);
      // A command run by `find -exec` or `xargs` whose runner a rule judged as gravely (`find /usr -exec rm {} \;`) adds nothing.
      if (!hit || Math.max(judged.get(c) ?? 0, c.from ? (judged.get(c.from) ?? 0) : 0) >= RANK[hit.severity]) continue;
      const what = `${label} "${snippetOf(c)}"`;
      out.push(finding(hit, verb, `${describe(what, raw, np, verb, hit)}${c.via ? ` inside ${c.via}` : ''}`, c, raw));
    }
  }
  return out;
}

/**
 * A path whose directory is only known at run time. `/usr/lib/$(x)` is still in /usr: a name
 * computed at run time inside a known absolute directory stays in that directory's zone.
 */
function unknownDirectory(raw: string): boolean {
  const at = raw.indexOf(UNKNOWN_EXPANSION);
  if (at < 0) return false;
  return !/^(?:~[^/]*)?\/[^/]+\//.test(raw.slice(0, at)) || /\/\.\.(?:\/|$)/.test(raw.slice(at));
}

/** targetPath of a file action: written by file_write, deleted by file_delete, read otherwise. */
export function targetZoneFinding(raw: string, verb: PathVerb, policy: CompiledPolicy): ZoneFinding | null {
  const np = normalizePath(raw);
  const hit = zoneHit(np, verb, policy.zones);
  return hit ? finding(hit, verb, describe('targetPath', raw, np, verb, hit), null, raw) : null;
}

function snippetOf(c: ShellCommand): string {
  const t = canonicalWithWrappers(c).split(UNKNOWN_EXPANSION).join('$(\u2026)').replace(/\s+/g, ' ').trim();
  return t.length > 100 ? `${t.slice(0, 99)}\u2026` : t;
}
