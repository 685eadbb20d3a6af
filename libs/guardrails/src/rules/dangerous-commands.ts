/**
 * Built-in dangerous patterns, evaluated on parsed simple commands (never on the raw
 * string alone), so quoting, wrappers, absolute program paths and nesting do not hide
 * them. `critical` findings force a block; GUARDRAILS.md has the full table.
 */
import { normalizePath, PLACEHOLDER_WORKSPACE } from '../paths/path-normalizer';
import { embeddedFiles } from '../shell/file-options';
import { pathActions } from '../shell/path-actions';
import { patternArgs } from '../shell/pattern-args';
import { flagsOf } from '../shell/shell-command';
import { canonicalPipeline, literalOutput, ParsedShell, pipelinesOf, ShellCommand } from '../shell/shell-parser';
import { CommandRisk, Severity } from './command-risk';
import { credentialKind, isHistoryFile } from './credential-files';
import { diskWipe, forkBomb, permissionsOnSystem, recursiveDelete } from './destructive-commands';
import {
  decodedFiles,
  decoderName,
  downloadedFiles,
  extractedDirs,
  pipeToInterpreter,
  reverseShell,
  runsExtracted,
  runsFile,
  substitutedDownloadRuns,
} from './remote-code';
import { containerSubcommand, hostTamperRisks } from './host-tamper';
import { privilegeReconRisks } from './privilege-recon';
import { processControlRisks } from './process-control';
import { shellEscapeRisks } from './shell-escape';
import { shellHandoffRisks } from './shell-handoff';
import { systemAdminRisks } from './system-admin';
import { looksLikeProgram, makesDecodedExecutable, runtimeCodeRisks } from './runtime-code';

export { CommandRisk, Severity } from './command-risk';

/** Programs that name a credential file without reading its content out. */
const CREDENTIAL_SAFE_PROGRAMS = new Set([
  'ls',
  'stat',
  'test',
  '[',
  '[[',
  'chmod',
  'chown',
  'ssh-add',
  'ssh-keygen',
  'file',
  'du',
  'source',
  '.',
  'ssh',
  'touch',
  'mkdir',
  'cd',
  'pushd',
]);

const CREDENTIAL_WRITERS = new Set(['rm', 'shred', 'truncate', 'unlink', 'mv', 'ln']);

/** Their last operand is a destination, written rather than read. */
const COPIERS = new Set(['cp', 'install', 'rsync', 'scp']);

/** Commands that print secrets without naming a file. */
function secretExport(c: ShellCommand): string | null {
  const { program, args } = c.unwrapped;
  if (program === 'gpg' && args.some((a) => /^--export-secret-(?:sub)?keys/.test(a))) return 'exports GPG secret keys';
  if (program === 'security' && (args[0] === 'dump-keychain' || (/^find-(?:generic|internet)-password$/.test(args[0] ?? '') && args.includes('-w'))))
    return 'reads passwords from the macOS keychain';
  if (program === 'aws' && args[0] === 'configure' && args[1] === 'get' && /secret|session_token/i.test(args[2] ?? '')) return 'prints the AWS secret key';
  if (program === 'vault' && args[0] === 'kv' && args[1] === 'get') return 'reads a secret from Vault';
  if (program === 'kubectl' && args[0] === 'get' && /^secrets?$/.test(args[1] ?? '') && args.some((a) => /^-o|^--output/.test(a)))
    return 'dumps Kubernetes secrets';
  return null;
}

function credentialRead(c: ShellCommand): string | null {
  const u = c.unwrapped;
  const exported = secretExport(c);
  if (exported) return exported;
  if (CREDENTIAL_SAFE_PROGRAMS.has(u.program)) return null;
  const reads: string[] = [];
  const operands = flagsOf(u.args).operands;
  const destination = COPIERS.has(u.program) && operands.length > 1 ? operands[operands.length - 1] : null;
  const patterns = patternArgs(u.program, u.args);
  for (let i = 0; i < u.args.length; i++) {
    const a = u.args[i];
    if (a === destination || patterns.has(i)) continue;
    if (a === '-i' && ['scp', 'sftp', 'rsync', 'git'].includes(u.program)) {
      i++;
      continue;
    }
    // `key=/path` names the path; an `=` later in a path or URI (`file:x?mode=ro`) does not.
    reads.push(a.startsWith('@') ? a.slice(1) : /^[\w.-]*=/.test(a) ? a.slice(a.indexOf('=') + 1).replace(/^@/, '') : a);
  }
  for (const r of c.redirects) if (r.op === '<' || r.op === '<>') reads.push(r.target);
  // A file named inside an argument: `-f/etc/shadow`, socat's `FILE:/etc/shadow`, SQL's `load_file('/etc/shadow')`.
  for (const f of embeddedFiles(u.program, u.args)) if (f.verb === 'read') reads.push(f.raw);
  for (const r of reads) {
    if (!/[/~.]/.test(r)) continue;
    const kind = credentialKind(normalizePath(r, c.cwd));
    if (kind) return `${CREDENTIAL_WRITERS.has(u.program) ? 'destroys' : 'reads'} ${r} (${kind})`;
  }
  return null;
}

const HISTORY_VARIABLES = /^(?:HISTFILE|HISTSIZE|HISTFILESIZE|HISTCONTROL)$/;

function historyWipe(c: ShellCommand): string | null {
  const { program, args } = c.unwrapped;
  if (program === 'history' && args.some((a) => /^-[a-z]*c/.test(a))) return 'clears the shell history';
  const unset = program === 'unset' ? args.find((a) => HISTORY_VARIABLES.test(a)) : undefined;
  if (unset) return `unsets ${unset} to stop recording history`;
  const exported = ['export', 'declare', 'typeset'].includes(program) ? args.map((a) => a.split('=') as [string, string]) : [];
  const bad = [...c.assignments, ...exported].find(
    ([k, v]) =>
      (k === 'HISTFILE' && (v === '/dev/null' || v === '')) ||
      (/^HIST(?:FILE)?SIZE$/.test(k) && v === '0') ||
      (k === 'HISTCONTROL' && /ignore(?:space|both)/.test(v ?? '')) ||
      (k === 'HISTIGNORE' && /\*/.test(v ?? '')),
  );
  if (bad) return `sets ${bad[0]}=${bad[1] === '' ? '""' : bad[1]} to stop recording history`;
  if (program === 'set' && args.includes('+o') && args.includes('history')) return 'turns shell history off';
  const writes = c.redirects.filter((r) => /^(?:>|>\||&>)$/.test(r.op)).map((r) => r.target);
  const destroyers = ['rm', 'shred', 'truncate', 'unlink', 'ln'].includes(program) ? flagsOf(args).operands : [];
  const target = [...writes, ...destroyers].find((p) => isHistoryFile(normalizePath(p, c.cwd)));
  return target ? `erases history or log file ${target}` : null;
}

type Hit = [rule: string, severity: Severity, description: string, path?: string];

const SHUTDOWN = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const BOOT_OR_SCHEDULE =
  /^\/etc\/crontab$|^\/etc\/cron\.[a-z]+\/|^\/var\/spool\/cron\/|^\/etc\/systemd\/system\/|^\/etc\/rc\.local$|^\/etc\/ld\.so\.preload$|^\/etc\/init\.d\/|^\/etc\/rc\d?\.d\/|^\/etc\/update-motd\.d\/|^\/etc\/xdg\/autostart\/|\/\.config\/autostart\/|\/\.config\/systemd\/user\/|\/\.ssh\/rc$|^\/etc\/profile$|^\/etc\/profile\.d\/|^\/etc\/bash\.bashrc$|\/library\/preferences\/(?:byhost\/)?com\.apple\.loginwindow/;
const SHELL_STARTUP =
  /\/\.(?:bashrc|bash_profile|profile|zshrc|zprofile|zshenv|zlogin|zlogout|bash_login|bash_logout|shrc|kshrc|cshrc|tcshrc)$|\/\.config\/fish\/config\.fish$/;
const HOST_MOUNT = /^(?:--volume=|-v)?\/(?::|var\/run\/docker\.sock|run\/docker\.sock)/;

/** Shutdowns, killing everything, disabling the firewall, wiping cron. */
function sabotage(program: string, args: string[]): Hit[] {
  const hits: Hit[] = [];
  const sub = args[0] ?? '';
  if (
    SHUTDOWN.has(program) ||
    (program === 'init' && ['0', '6'].includes(sub)) ||
    (program === 'systemctl' && ['poweroff', 'reboot', 'halt', 'kexec'].includes(sub))
  ) {
    hits.push(['shutdown', 'high', 'shuts down or reboots the machine']);
  }
  const killAll = (program === 'kill' || program === 'pkill') && args.includes('-1') && args.some((a) => /^-(?:9|kill|sigkill)$/i.test(a));
  if (killAll || program === 'killall5') hits.push(['kill_all', 'high', 'kills every process']);
  if ((program === 'iptables' || program === 'ip6tables') && args.some((a) => a === '-F' || a === '--flush'))
    hits.push(['firewall', 'medium', 'flushes the firewall rules']);
  if (program === 'ufw' && sub === 'disable') hits.push(['firewall', 'medium', 'disables the firewall']);
  if (program === 'setenforce' && sub === '0') hits.push(['firewall', 'medium', 'disables SELinux']);
  if (program === 'crontab' && args.includes('-r')) hits.push(['cron', 'medium', 'removes every cron job']);
  if (program === 'crontab' && args.includes('-')) hits.push(['cron', 'medium', 'installs a crontab from stdin (persistence)']);
  return hits;
}

/** Writes that make code run again later: authorized_keys, cron, systemd, shell startup files. */
function persistence(c: ShellCommand): Hit[] {
  const { program, args } = c.unwrapped;
  const written = c.redirects.filter((r) => /^(?:>|>>|>\||&>|&>>)$/.test(r.op)).map((r) => r.target);
  if (program === 'tee') written.push(...flagsOf(args).operands);
  const redirected = written.length;
  // Written any other way: copied or moved there, an editor, an output option, code (`sqlite3 '.output /etc/cron.d/x'`).
  for (const a of pathActions(c)) if ((a.verb === 'write' || a.verb === 'copy_into' || a.verb === 'move_into') && !written.includes(a.raw)) written.push(a.raw);
  const hits: Hit[] = [];
  for (const [k, t] of written.entries()) {
    const key = normalizePath(t, c.cwd).key;
    // Made or linked in a project (`touch .bash_profile`, `ln -s .bashrc .bash_profile`), a dotfile is not the user's startup file.
    if (k >= redirected && SHELL_STARTUP.test(key) && (key === PLACEHOLDER_WORKSPACE || key.startsWith(`${PLACEHOLDER_WORKSPACE}/`))) continue;
    if (/\/\.ssh\/authorized_keys2?$/.test(key)) hits.push(['persistence', 'high', 'adds an SSH key to authorized_keys (persistence)']);
    else if (BOOT_OR_SCHEDULE.test(key)) hits.push(['persistence', 'high', `writes ${t}, which runs code at boot or on a schedule (persistence)`]);
    // A startup file written asks for approval (flag), not a block: `npm completion >> ~/.bashrc` is everyday.
    else if (SHELL_STARTUP.test(key)) hits.push(['persistence', 'medium', `modifies shell startup file ${t} (persistence)`, t]);
  }
  return hits;
}

function containerEscape(program: string, clientArgs: string[]): Hit[] {
  const args = containerSubcommand(clientArgs);
  if (!['docker', 'podman', 'nerdctl'].includes(program) || !['run', 'create', 'exec'].includes(args[0] ?? '')) return [];
  const hits: Hit[] = [];
  if (args.includes('--privileged')) hits.push(['container_escape', 'high', `starts a privileged ${program} container`]);
  const mountsHost = args.some((a, k) => (['-v', '--volume'].includes(args[k - 1]) || /^(?:--volume=|-v)/.test(a)) && HOST_MOUNT.test(a));
  if (mountsHost) hits.push(['container_escape', 'high', `mounts the host root or docker socket into a ${program} container`]);
  return hits;
}

/** `env`, `printenv`, `set`, `export -p`: every environment variable, secrets included. */
export function printsEnvironment(c: ShellCommand): boolean {
  const { program, args } = c.unwrapped;
  return (['env', 'printenv', 'set'].includes(program) && args.length === 0) || (program === 'export' && (args.length === 0 || args[0] === '-p'));
}

/** Programs that only show or narrow text on the terminal: the environment piped through them stays on screen. */
const SCREEN_FILTERS = new Set([
  'sed',
  'awk',
  'gawk',
  'mawk',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'sort',
  'uniq',
  'head',
  'tail',
  'less',
  'more',
  'most',
  'cut',
  'wc',
  'column',
  'tr',
  'cat',
  'bat',
  'nl',
  'fzf',
]);
const SAVED = /^(?:>|>>|>\||&>|&>>)$/;

/**
 * Printing the environment to one's own terminal is everyday (the session still records it as a
 * secret read); the environment written to a file or handed to another program leaves the screen.
 */
function environmentDump(c: ShellCommand, pipeline: readonly ShellCommand[]): Hit[] {
  if (!printsEnvironment(c)) return [];
  const after = pipeline.filter((s) => s.stage >= c.stage);
  const saved = after.some((s) =>
    s.redirects.some((r) => SAVED.test(r.op) && (r.fd === '' || r.fd === '1' || r.op.startsWith('&')) && r.target !== '/dev/null'),
  );
  const handed = after.slice(1).some((s) => !SCREEN_FILTERS.has(s.unwrapped.program));
  if (!saved && !handed) return [];
  return [['env_dump', 'medium', `${saved ? 'writes' : 'hands on'} every environment variable (secrets included)`]];
}

function miscellaneous(c: ShellCommand, pipeline: readonly ShellCommand[]): CommandRisk[] {
  const { program, args } = c.unwrapped;
  const hits = [...sabotage(program, args), ...persistence(c), ...containerEscape(program, args), ...environmentDump(c, pipeline)];
  return hits.map(([rule, severity, description, path]) => ({
    rule,
    severity,
    description,
    command: c,
    category: 'dangerous_command',
    ...(path ? { path } : {}),
  }));
}

export function dangerousCommandRisks(parsed: ParsedShell): CommandRisk[] {
  const risks: CommandRisk[] = [];
  const functions = new Set(parsed.functions);
  const pipelineOf = new Map<ShellCommand, ShellCommand[]>();
  for (const p of pipelinesOf(parsed)) for (const c of p) pipelineOf.set(c, p);
  const downloaded = new Set<string>();
  const decoded = new Set<string>();
  const extracted = new Set<string>();
  for (const c of parsed.commands) {
    const pipeline = pipelineOf.get(c) ?? [c];
    const add = (rule: string, severity: Severity, description: string | null, shown?: string) => {
      if (description) risks.push({ rule, severity, description, command: c, shown, category: 'dangerous_command' });
    };
    risks.push(...recursiveDelete(c));
    add('disk_wipe', 'critical', diskWipe(c));
    const whole = pipeline.length > 1 ? canonicalPipeline(pipeline) : undefined;
    add('reverse_shell', 'critical', reverseShell(c, pipeline), whole);
    add('fork_bomb', 'critical', forkBomb(c, pipeline, functions), whole);
    risks.push(...permissionsOnSystem(c));
    risks.push(...pipeToInterpreter(c, pipeline));
    risks.push(...substitutedDownloadRuns(c));
    const ran = runsFile(c, downloaded);
    add('run_downloaded', 'high', ran ? `runs ${ran}, which it just downloaded` : null);
    const ranDecoded = runsFile(c, decoded);
    add('run_downloaded', 'high', ranDecoded ? `runs ${ranDecoded}, which it just wrote from decoded data` : null);
    const extractedRun = runsExtracted(c, extracted);
    add('run_downloaded', 'high', extractedRun ? `runs ${extractedRun}, extracted from an archive it just downloaded` : null);
    for (const d of extractedDirs(c, downloaded)) extracted.add(d);
    for (const f of downloadedFiles(c, pipeline)) downloaded.add(f);
    for (const f of decodedFiles(c, pipeline)) decoded.add(f);
    add('credential_read', 'high', credentialRead(c));
    add('history_wipe', 'high', historyWipe(c));
    risks.push(...miscellaneous(c, pipeline));
    if (c.unwrapped.dynamicProgram) {
      risks.push({
        rule: 'dynamic_program',
        severity: 'medium',
        description: `runs a program whose name is only known at run time (${c.unwrapped.programPath || c.argv[0]})`,
        command: c,
        category: 'obfuscated_command',
      });
    }
    risks.push(...processControlRisks(c, pipeline));
    risks.push(...systemAdminRisks(c));
    risks.push(...privilegeReconRisks(c));
    risks.push(...hostTamperRisks(c));
    risks.push(...shellEscapeRisks(c, pipeline));
    // A program the precise rules already judged (an escape, a side door, a masquerade) needs no second word.
    if (!risks.some((r) => r.command === c && /^(?:shell_escape|side_door|user_shell|masquerade|accounts|persistence)$/.test(r.rule)))
      risks.push(...shellHandoffRisks(c));
    // A function body read where it is defined has unknown arguments; it is judged again where it is called.
    risks.push(...runtimeCodeRisks(c).filter((r) => !(c.inDefinition && r.rule === 'dynamic_eval')));
    const dropped = makesDecodedExecutable(c, decoded, (p) => normalizePath(p, c.cwd).key);
    add('decoded_code', 'high', dropped ? `makes ${dropped} executable, a file it just wrote from decoded data` : null);
    const program = c === pipeline[pipeline.length - 1] && pipeline.some((s) => decoderName(s) !== null) ? literalOutput(pipeline) : null;
    const kind = program === null ? null : looksLikeProgram(program);
    const target = c.redirects.find((r) => /^(?:>|>>|>\|)$/.test(r.op))?.target;
    add('decoded_code', 'high', kind && target ? `writes ${kind} decoded from inline data to ${target}` : null);
  }
  // What `find -exec` or `xargs` runs is the same command given its arguments: a rule that judged the runner is not counted twice.
  return risks.filter((r) => r.command.from === null || !risks.some((p) => p.command === r.command.from && p.rule === r.rule));
}
