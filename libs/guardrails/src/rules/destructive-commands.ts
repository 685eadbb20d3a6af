/** Built-in rules for commands that destroy data or the system: rm -rf /, disk wipes, chmod -R 777 /, fork bombs. */
import { globReaches, hasPathGlob, homeTemplates, templateOf } from '../paths/path-glob';
import { normalizePath, PLACEHOLDER_WORKSPACE } from '../paths/path-normalizer';
import { flagsOf } from '../shell/shell-command';
import { UNKNOWN_EXPANSION } from '../shell/shell-lexer';
import { ShellCommand } from '../shell/shell-parser';
import { CommandRisk, Severity } from './command-risk';
import { codeArgument } from './remote-code';

const SYSTEM_DIRS = new Set([
  '/etc',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/boot',
  '/var',
  '/opt',
  '/srv',
  '/sys',
  '/proc',
  '/dev',
  '/run',
  '/usr/bin',
  '/usr/lib',
  '/usr/local',
  '/usr/sbin',
  '/var/lib',
  '/system',
  '/library',
  '/applications',
  '/private',
  '/home',
  '/users',
]);

const BLOCK_DEVICE = /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|mapper\/|md\d|dm-\d|root$|mem$|kmem$|port$)/;

/** find predicates that select some files rather than all of them. */
const FIND_FILTERS = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-regex',
  '-iregex',
  '-newer',
  '-mtime',
  '-mmin',
  '-atime',
  '-amin',
  '-ctime',
  '-cmin',
  '-size',
  '-user',
  '-group',
  '-perm',
  '-empty',
  '-links',
  '-inum',
  '-samefile',
]);

type TargetClass = 'root' | 'home' | 'system' | 'workspace' | 'maybe-root' | null;

const HOME_DIR = /^\/home\/[^/]+$|^\/root$|^\/users\/[^/]+$/;

function classifyKey(key: string, raw: string): { cls: TargetClass; shown: string } {
  if (key === '/') return { cls: 'root', shown: '/' };
  if (HOME_DIR.test(key)) return { cls: 'home', shown: key };
  if (SYSTEM_DIRS.has(key)) return { cls: 'system', shown: key };
  if (key === PLACEHOLDER_WORKSPACE.toLowerCase()) return { cls: 'workspace', shown: raw };
  return { cls: null, shown: key };
}

/** A glob is as bad as the worst directory it could match: `/?*` and `/[!w]*` match /bin, /etc... */
function classifyGlob(key: string, raw: string): { cls: TargetClass; shown: string } {
  const by = ` (matched by the glob "${raw}")`;
  const system = [...SYSTEM_DIRS].find((d) => globReaches(key, templateOf(d), 'exact'));
  if (system) return { cls: 'system', shown: system + by };
  if (homeTemplates([]).some((t) => globReaches(key, t, 'exact'))) return { cls: 'home', shown: `a home directory${by}` };
  if (globReaches(key, templateOf(PLACEHOLDER_WORKSPACE), 'exact')) return { cls: 'workspace', shown: raw };
  return { cls: null, shown: key };
}

function classifyTarget(raw: string, cwd: string): { cls: TargetClass; shown: string } {
  if (raw.includes(UNKNOWN_EXPANSION) || /^\$/.test(raw)) {
    const rest = raw
      .split(UNKNOWN_EXPANSION)
      .join('$_')
      .replace(/^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?)+/, '');
    return { cls: rest === '' || /^\/\*?$/.test(rest) ? 'maybe-root' : null, shown: raw };
  }
  // `dir/*`, `dir/.*` and `dir/*/` (after normalizing) delete the directory's content: as bad as `dir`.
  const key = normalizePath(raw, cwd).key.replace(/(?:\/\.?\*)+$/, '') || '/';
  return hasPathGlob(key) ? classifyGlob(key, raw) : classifyKey(key, raw);
}

const CLASS_WORDS: Record<Exclude<TargetClass, null>, string> = {
  root: 'the root filesystem',
  home: 'a home directory',
  system: 'system directory',
  workspace: 'the whole working directory',
  'maybe-root': 'a path that expands to / when the variable is empty',
};

function severityOf(cls: Exclude<TargetClass, null>): Severity {
  return cls === 'workspace' || cls === 'maybe-root' ? 'high' : 'critical';
}

function describeTarget(cls: Exclude<TargetClass, null>, shown: string): string {
  if (cls === 'system') return `${CLASS_WORDS.system} ${shown}`;
  if (cls === 'maybe-root') return `"${shown}", ${CLASS_WORDS[cls]}`;
  return cls === 'home' && shown.includes('(matched by') ? shown : CLASS_WORDS[cls];
}

export function recursiveDelete(c: ShellCommand): CommandRisk[] {
  const { program, args } = c.unwrapped;
  const out: CommandRisk[] = [];
  const risk = (severity: Severity, description: string) =>
    out.push({
      rule: 'recursive_delete',
      severity,
      description,
      command: c,
      category: 'dangerous_command',
    });
  if (program === 'rm') {
    const f = flagsOf(args);
    if (f.long.has('--no-preserve-root')) risk('critical', 'recursive delete with --no-preserve-root');
    if (!(f.short.has('r') || f.short.has('R') || f.long.has('--recursive'))) return out;
    for (const t of f.operands) {
      const { cls, shown } = classifyTarget(t, c.cwd);
      if (cls) risk(severityOf(cls), `recursive delete of ${describeTarget(cls, shown)}`);
    }
  }
  if (program === 'find') {
    const start = args.filter((a) => !a.startsWith('-')).slice(0, 1);
    const destructive = args.includes('-delete') || args.some((a, k) => a.startsWith('-exec') && ['rm', 'shred'].includes(args[k + 1]?.split('/').pop() ?? ''));
    const selective = args.some((a) => FIND_FILTERS.has(a));
    for (const t of destructive ? start : []) {
      const { cls, shown } = classifyTarget(t, c.cwd);
      if (!cls || (selective && (cls === 'workspace' || cls === 'maybe-root'))) continue;
      if (selective) risk('high', `deletes matching files anywhere under ${describeTarget(cls, shown)}`);
      else risk(severityOf(cls), `deletes everything found under ${describeTarget(cls, shown)}`);
    }
  }
  if (program === 'mv') {
    const f = flagsOf(args);
    for (const t of f.operands.slice(0, -1)) {
      const { cls, shown } = classifyTarget(t, c.cwd);
      if (cls && cls !== 'workspace' && cls !== 'maybe-root') risk('critical', `moves away ${describeTarget(cls, shown)}`);
    }
  }
  return out;
}

export function diskWipe(c: ShellCommand): string | null {
  const { program, args } = c.unwrapped;
  const devices = [...args, ...c.redirects.map((r) => r.target)]
    .map((a) => a.replace(/^of=/, ''))
    .filter((a) => BLOCK_DEVICE.test(normalizePath(a, c.cwd).key));
  const outRedirectToDevice = c.redirects.find((r) => /^(?:>|>>|>\||&>|&>>|1>)$/.test(r.op) && BLOCK_DEVICE.test(normalizePath(r.target, c.cwd).key));
  if (outRedirectToDevice) return `overwrites block device ${outRedirectToDevice.target}`;
  if (program === 'dd') {
    const of = args.find((a) => a.startsWith('of='));
    if (of && BLOCK_DEVICE.test(normalizePath(of.slice(3), c.cwd).key)) return `overwrites block device ${of.slice(3)} with dd`;
  }
  if (/^(?:mkfs(?:\.[a-z0-9]+)?|mke2fs|mkswap|mkntfs|mkdosfs|newfs|wipefs|blkdiscard)$/.test(program))
    return `formats or wipes ${devices[0] ?? 'a disk'} (${program})`;
  if (program === 'shred' && devices.length > 0) return `shreds block device ${devices[0]}`;
  if (program === 'sgdisk' && args.some((a) => a === '-Z' || a === '--zap-all')) return 'destroys the partition table (sgdisk --zap-all)';
  if (program === 'diskutil' && args.some((a) => /^(?:erase|zero|secureerase|reformat)/i.test(a))) return `erases a disk (diskutil ${args[0]})`;
  return null;
}

export function forkBomb(c: ShellCommand, pipeline: ShellCommand[], functions: ReadonlySet<string>): string | null {
  const p = c.unwrapped.program;
  if (functions.has(c.argv[0] ?? '') && pipeline.length > 1 && c === pipeline[0] && pipeline.every((s) => s.argv[0] === c.argv[0])) {
    return `fork bomb: function "${c.argv[0]}" pipes itself into itself`;
  }
  const code = codeArgument(c);
  if (
    code &&
    /fork[\s;]{0,5}while[\s(]{0,5}fork|while[\s(]{0,5}(?:1|true)[\s):]{0,5}[{:]?[\s]{0,5}(?:os\.)?fork\s?\(|for\s?\(\s?;\s?;\s?\)\s?\{?\s?fork/i.test(code)
  ) {
    return `fork bomb in a ${p} one-liner`;
  }
  return null;
}

export function permissionsOnSystem(c: ShellCommand): CommandRisk[] {
  const { program, args } = c.unwrapped;
  const out: CommandRisk[] = [];
  if (program !== 'chmod' && program !== 'chown' && program !== 'chgrp') return out;
  const f = flagsOf(args);
  const recursive = f.short.has('R') || f.long.has('--recursive');
  const [mode, ...targets] = f.operands;
  const worldWritable =
    program === 'chmod' &&
    /^(?:[0-7]?[0-7][0-7][2367]|[ugoa]*[+=][rwxXst]*w[rwxXst]*)$/.test(mode ?? '') &&
    (/^[0-7]+$/.test(mode ?? '') || /^[oa]|^[+=]/.test(mode ?? ''));
  for (const t of targets) {
    const { cls, shown } = classifyTarget(t, c.cwd);
    if (cls === 'root' || cls === 'system' || cls === 'home') {
      if (recursive || cls === 'root')
        out.push({
          rule: 'system_permissions',
          severity: 'critical',
          description: `${program} ${recursive ? '-R ' : ''}${mode} on ${describeTarget(cls, shown)}`,
          command: c,
          category: 'dangerous_command',
        });
    } else if (recursive && worldWritable && cls === 'workspace') {
      out.push({
        rule: 'world_writable',
        severity: 'medium',
        description: `makes ${describeTarget(cls, shown)} world-writable`,
        command: c,
        category: 'dangerous_command',
      });
    }
  }
  if (program === 'chmod' && /^(?:[ugoa]*\+[rwx]*s|[2467][0-7]{3})$/.test(mode ?? '')) {
    out.push({ rule: 'setuid', severity: 'high', description: 'sets the setuid/setgid bit', command: c, category: 'dangerous_command' });
  }
  return out;
}
