/**
 * What a command does to the machine that the other rules did not name, each judged by what the
 * program does with its arguments: file systems mounted, a host's root or its init's namespaces
 * handed to a container, a container given capabilities or confinement that reach the host, the
 * kernel's run-as-root hooks written (cgroup release agent, core_pattern), an account line with
 * user id 0 written anywhere, a password asked for in another program's words, sudo's "user -1" (which is root), files named like a program's
 * options (a later `*` hands them to that program as options), and names with invisible
 * characters (a file that looks like another).
 */
import { flagsOf } from '../shell/shell-command';
import { pathActions } from '../shell/path-actions';
import { ShellCommand } from '../shell/shell-parser';
import { CommandRisk, Severity } from './command-risk';

type Hit = [rule: string, severity: Severity, description: string, category?: CommandRisk['category']];

/** File systems are the machine's: mounting one (a remote share, a disk, an image) or unmounting one changes it for everyone (FUSE mounts such as sshfs are a user's own). */
function mounting(program: string, args: string[]): Hit | null {
  if (program !== 'mount' && program !== 'umount' && program !== 'mount.nfs' && program !== 'mount.cifs') return null;
  const valued = /^-[tOoLUBNT]$|^--(?:types|options|label|uuid|target|source)$/;
  const ops = args.filter((a, k) => !a.startsWith('-') && !valued.test(args[k - 1] ?? ''));
  if (ops.length === 0) return null;
  const remote = ops.find((o) => /^[\w.-]+:\/|^\/\/[\w.-]+\/|^[\w.-]+@[\w.-]+:/.test(o));
  const what = program === 'umount' ? `unmounts ${ops[0]}` : remote ? `mounts the remote file system ${remote}` : `mounts ${ops[0]}`;
  return ['mount', 'medium', `${program} ${what} (the machine's file systems change)`, 'system_change'];
}

/** Docker's and podman's own options before the subcommand (`docker -H unix:///… run …`). */
const CLIENT_OPTIONS_WITH_VALUE = /^(?:-H|--host|-c|--context|--config|-l|--log-level|--tlscacert|--tlscert|--tlskey|--url|--connection|--remote-host)$/;
/** The arguments after a container client's own options: `['run', …]`. */
export function containerSubcommand(args: readonly string[]): string[] {
  let k = 0;
  while (k < args.length && args[k].startsWith('-')) k += CLIENT_OPTIONS_WITH_VALUE.test(args[k]) ? 2 : 1;
  return args.slice(k);
}

/** nsenter is peeled off as a wrapper: its options are in argv, before what it runs. */
function nsenterTarget(argv: readonly string[]): string | null {
  const n = argv.findIndex((a) => /(?:^|\/)nsenter$/.test(a));
  if (n < 0) return null;
  for (let k = n + 1; k < argv.length && argv[k].startsWith('-') && argv[k] !== '--'; k++) {
    const a = argv[k];
    if (a === '-t' || a === '--target') return argv[k + 1] ?? null;
    if (/^--target=/.test(a)) return a.slice('--target='.length);
    if (/^-t\d+$/.test(a)) return a.slice(2);
  }
  return null;
}

/** Capabilities that let a container's root act on the host (mount, trace, load modules, read any file). */
const ESCAPE_CAPS = /^(?:cap_)?(?:all|sys_admin|sys_ptrace|sys_module|sys_rawio|dac_read_search)$/i;

/** `--cap-add=SYS_ADMIN`, `--security-opt apparmor=unconfined`: a container with the host's guards taken off. */
function unconfined(program: string, args: string[]): Hit | null {
  if (!['docker', 'podman', 'nerdctl'].includes(program) || !['run', 'create'].includes(args[0] ?? '')) return null;
  for (let k = 1; k < args.length; k++) {
    const cap = args[k] === '--cap-add' ? (args[k + 1] ?? '') : args[k].startsWith('--cap-add=') ? args[k].slice('--cap-add='.length) : null;
    if (cap !== null && cap.split(',').some((x) => ESCAPE_CAPS.test(x)))
      return ['container_escape', 'high', `${program} gives a container ${cap}, which reaches the host`];
    const opt = args[k] === '--security-opt' ? (args[k + 1] ?? '') : args[k].startsWith('--security-opt=') ? args[k].slice('--security-opt='.length) : null;
    if (opt !== null && /^(?:apparmor|seccomp)[=:]unconfined$|^label[=:]disable$/.test(opt))
      return ['container_escape', 'high', `${program} runs a container with ${opt} (the host's confinement off)`];
  }
  return null;
}

/** Files the kernel reads to run a program as root on the host: a cgroup's release agent, the core dump pipe, the hotplug helper, binfmt handlers. */
const KERNEL_HOOK = /(?:^|\/)(?:release_agent|notify_on_release|core_pattern|uevent_helper|binfmt_misc\/register)$/;

function kernelHook(c: ShellCommand): Hit | null {
  // written through a redirect or tee (what `pathActions` calls a write or a truncation)
  const hook = pathActions(c).find((a) => (a.verb === 'write' || a.verb === 'truncate') && KERNEL_HOOK.test(a.raw))?.raw;
  return hook ? ['kernel_hook', 'high', `writes ${hook}, a hook through which the kernel runs a program as root`, 'system_change'] : null;
}

function containerHost(c: ShellCommand, program: string, args: string[]): Hit | null {
  if (nsenterTarget(c.argv) === '1') return ['container_escape', 'high', "nsenter enters the namespaces of PID 1, the host's init (the host, as root)"];
  if (program === 'lxc' || program === 'incus') {
    if (args.some((a, k) => /^security\.privileged=true$/i.test(a) || (/^security\.privileged$/i.test(a) && /^(?:true|1)$/i.test(args[k + 1] ?? ''))))
      return ['container_escape', 'high', `${program} makes a privileged container (its root is the host's root)`];
    if (args.includes('device') && args.includes('disk') && args.some((a) => /^source=\/\/?$/.test(a)))
      return ['container_escape', 'high', `${program} hands the host's root file system to a container`];
  }
  return null;
}

/** `name:password:0:gid:…`: a passwd line whose user id is 0 is a second root, wherever the file is. */
const ROOT_ACCOUNT_LINE = /(?:^|\n|['"\s])[a-z_][\w.-]{0,31}:[^:\s]*:0:\d+:[^:\n]*:[^:\n]*:/i;

function rootAccount(c: ShellCommand): Hit | null {
  const { program, args } = c.unwrapped;
  const redirected = c.redirects.some((r) => /^(?:>|>>|>\|)$/.test(r.op));
  // What echo or printf writes to a file, or what tee is given on stdin (`echo '…' | tee -a FILE`).
  const text =
    (program === 'echo' || program === 'printf') && redirected ? args.join(' ') : program === 'tee' && flagsOf(args).operands.length > 0 ? (c.stdin ?? '') : '';
  return ROOT_ACCOUNT_LINE.test(text) ? ['accounts', 'high', 'writes an account line with user id 0 (a second root account)', 'system_change'] : null;
}

/** sudo's `-u#-1` / `-u#4294967295`: user id -1 is read as 0, root, even where root is excluded (CVE-2019-14287). */
function sudoMinusOne(c: ShellCommand): Hit | null {
  const k = c.argv.findIndex((a) => a === 'sudo' || /\/sudo$/.test(a));
  if (k < 0) return null;
  const rest = c.argv.slice(k + 1);
  const user = rest.flatMap((a, j) => (/^-u#|^--user=#/.test(a) ? [a.replace(/^-u|^--user=/, '')] : /^-u$|^--user$/.test(a) ? [rest[j + 1] ?? ''] : []));
  return user.some((u) => /^#(?:-1|4294967295)$/.test(u)) ? ['sudo_uid_bypass', 'high', 'sudo as user id -1, which sudo runs as root (CVE-2019-14287)'] : null;
}

/** Another program's authentication prompt: sudo's, ssh's (`user@host's password:`), git's, ssh-add's. */
const FOREIGN_PROMPT = /\[sudo\]\s*password|sudo password|'s password:|password for '?https?:|enter passphrase for (?:key|\/)/i;

/** `read -sp "[sudo] password for $USER: " p`: a script asking for a password in another program's words (credential phishing). */
function spoofedPrompt(program: string, args: string[]): Hit | null {
  if (program !== 'read') return null;
  const k = args.findIndex((a) => /^-[a-zA-Z]*p$/.test(a));
  const prompt = k < 0 ? '' : (args[k + 1] ?? '');
  return FOREIGN_PROMPT.test(prompt) ? ['credential_phishing', 'high', `asks for a password with another program's prompt (${prompt.trim()})`] : null;
}

/** Files a command creates: `touch` operands and what redirections write. */
function createdNames(c: ShellCommand): string[] {
  const { program, args } = c.unwrapped;
  const written = c.redirects.filter((r) => /^(?:>|>>|>\|)$/.test(r.op)).map((r) => r.target);
  if (program !== 'touch') return written;
  const ops: string[] = [];
  let ended = false;
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (!ended && a === '--') ended = true;
    else if (!ended && /^-[dtr]$/.test(a)) k++;
    else if (ended || !a.startsWith('-')) ops.push(a);
  }
  return [...ops, ...written];
}

/** Zero-width, bidi and tag characters: a name that shows as another. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/;

function names(c: ShellCommand): Hit[] {
  const hits: Hit[] = [];
  const created = createdNames(c);
  // An option with a value or a command in it (`--checkpoint-action=exec=sh x`, `-e sh x`), not a name that merely starts with a dash.
  const optionLike = created.find((n) => /^--?[a-z][\w-]*(?:=|\s)/i.test(n.replace(/^.*\//, '')));
  if (optionLike)
    hits.push(['argument_injection', 'medium', `creates a file named like an option (${optionLike}): a wildcard hands it to a program as that option`]);
  const hidden = created.find((a) => INVISIBLE.test(a));
  if (hidden) {
    const cp = hidden.match(INVISIBLE)?.[0].codePointAt(0) ?? 0;
    hits.push([
      'masquerade',
      'medium',
      `names a file with an invisible character (U+${cp.toString(16).toUpperCase().padStart(4, '0')}), so it shows as another`,
    ]);
  }
  return hits;
}

export function hostTamperRisks(c: ShellCommand): CommandRisk[] {
  const { program, args } = c.unwrapped;
  const sub = program === 'docker' || program === 'podman' ? containerSubcommand(args) : args;
  const hits = [
    mounting(program, args),
    containerHost(c, program, sub),
    unconfined(program, sub),
    kernelHook(c),
    spoofedPrompt(program, args),
    rootAccount(c),
    sudoMinusOne(c),
    ...names(c),
  ];
  return hits
    .filter((h): h is Hit => h !== null)
    .map(([rule, severity, description, category]) => ({ rule, severity, description, command: c, category: category ?? 'dangerous_command' }));
}
