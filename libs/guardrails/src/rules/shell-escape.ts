/**
 * Taking over the session a program runs in: a shell started with no script by something
 * other than the user (`env sh`, `find -exec sh`, `vim -c ':!sh'`, `python -c
 * 'os.system("/bin/sh")'`, `tar --checkpoint-action=exec=sh`), a shell as root or as
 * another user (`sudo -i`, `sudo su`, `su -`, `bash -p`), a library loaded into a program
 * (`ssh-keygen -D ./x.so`, `ctypes.CDLL`), the setuid bit set on install, and awk serving
 * commands read from a socket. Judged by what each program does with its arguments, not
 * by the names of the programs that can be abused.
 */
import { awkCode, sideDoorScripts } from '../shell/exec-options';
import { interpreterCode, shellCallsIn } from '../shell/interpreter-code';
import { flagsOf, INTERPRETERS, SHELL_PROGRAMS } from '../shell/shell-command';
import { UNKNOWN_EXPANSION } from '../shell/shell-lexer';
import { literalOutput, ShellCommand } from '../shell/shell-parser';
import { CommandRisk, Severity } from './command-risk';

type Hit = [rule: string, severity: Severity, description: string];
// `user_shell` is medium: with the privilege_escalation points of `sudo`/`su` it asks for approval (flag), it is not refused.

/** Shell options that take a value (`bash -o posix`, `--rcfile f`): the value is not a script. */
const SHELL_VALUE_OPTIONS = /^(?:[-+]o|[-+]O|--rcfile|--init-file)$/;
/** Ways of running a shell that are the user's own shell replacing or timing itself. */
const SAME_SHELL_WRAPPERS = new Set(['exec', 'command', 'builtin', 'sudo', 'doas', 'pkexec']);
/** Nested origins that are another program running a command it was handed (not a shell, eval or alias). */
const ESCAPE_VIA = /^find -|code$|\(a command it runs\)$|\(a command line it is handed\)$|^script -c$|^su -c$|^flock -c$|^runuser -c$|^sg /;
/** Redirections that hand the shell the terminal back (`<$(tty)`, `0<&2`, `1>&0`). */
const TTY_TARGET = /^(?:&[012]|\/dev\/tty|\/dev\/pts\/\d+)$/;

/** A shell run with no script: no `-c`, no script file, stdin not a pipe, a file or a here-document. */
function interactiveShell(c: ShellCommand): { args: string[]; short: Set<string> } | null {
  const u = c.unwrapped;
  const isBusybox = u.program === 'busybox' && /^(?:a|ba|)sh$/.test(u.args[0] ?? '');
  if (!SHELL_PROGRAMS.has(u.program) && !isBusybox) return null;
  const args = isBusybox ? u.args.slice(1) : u.args;
  const short = new Set<string>();
  let stdinScript = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--command' || a.startsWith('--command=')) return null;
    if (SHELL_VALUE_OPTIONS.test(a)) {
      i++;
      continue;
    }
    if (/^-[a-zA-Z]+$/.test(a)) {
      for (const ch of a.slice(1)) short.add(ch);
      continue;
    }
    if (a.startsWith('-') || a.startsWith('+')) continue;
    // An operand is a script file, unless -s says the script comes from stdin.
    if (!short.has('s')) return null;
    stdinScript = true;
    break;
  }
  if (short.has('c')) return null;
  const ttyIn = c.redirects.some(
    (r) => /^<&?$/.test(r.op) && (TTY_TARGET.test(r.target) || r.target.includes(UNKNOWN_EXPANSION)) && r.fd !== '1' && r.fd !== '2',
  );
  if (c.stage > 0 && !ttyIn) return null;
  if (c.redirects.some((r) => (r.op === '<' && !ttyIn) || r.op.startsWith('<<'))) return null;
  if (stdinScript && !ttyIn) return null;
  return { args, short };
}

function shellEscape(c: ShellCommand): Hit | null {
  const u = c.unwrapped;
  // A line typed into a pager or editor: `!/bin/sh`, `:!sh`.
  const typed = /^(?::?!|\\!)\s*(.*)$/.exec(u.programPath);
  if (typed && SHELL_PROGRAMS.has(typed[1].split('/').pop() ?? ''))
    return ['shell_escape', 'high', `types ${u.programPath}, a shell escape from an interactive program`];
  const shell = interactiveShell(c);
  if (!shell) return null;
  const name = u.program === 'busybox' ? 'busybox sh' : u.program;
  if (u.elevated) return ['user_shell', 'medium', `opens an interactive root shell (${u.wrappers.find((w) => SAME_SHELL_WRAPPERS.has(w)) ?? 'sudo'} ${name})`];
  if (shell.short.has('p')) return ['user_shell', 'medium', `${name} -p keeps the rights of a setuid owner (an interactive privileged shell)`];
  const runner = c.origins.find((o) => ESCAPE_VIA.test(o));
  if (runner !== undefined) return ['shell_escape', 'high', `${runner.split(' ')[0]} starts an interactive shell (a shell escape)`];
  const through = u.wrappers.filter((w) => !SAME_SHELL_WRAPPERS.has(w) && (w !== 'xargs' || c.argv.some((a) => a === '-a' || a.startsWith('--arg-file'))));
  if (through.length > 0) return ['shell_escape', 'high', `starts an interactive ${name} through ${through[0]} (a shell escape)`];
  const reattached = c.redirects.some((r) => /^[<>]&$/.test(r.op) && /^[012]$/.test(r.target) && r.fd !== '' && r.fd !== r.target);
  if (reattached || c.redirects.some((r) => TTY_TARGET.test(r.target) || (r.op === '<' && r.target.includes(UNKNOWN_EXPANSION))))
    return ['shell_escape', 'high', `starts an interactive ${name} wired to the terminal (a shell escape)`];
  return null;
}

/** A shell with no script as the first word (`sh`, `/bin/sh -i`, `exec sh 1>&0`): the escape rule judges it where it runs. */
const INTERACTIVE_SCRIPT = /^\s*(?:exec\s+)?(?:\S*\/)?(?:ba|z|da|k|c|tc|a)?sh(?:\s|$)(?![^|;&]*\s-[a-z]*c\b)/;

/** `tar --checkpoint-action=exec=id`, `zip -TT 'id #'`, `sed '1e id'`, `vim -c ':!id'`: a command through a side door. */
function sideDoor(c: ShellCommand): Hit | null {
  const { program, args } = c.unwrapped;
  const scripts = sideDoorScripts(program, args);
  if (scripts.length === 0 || scripts.every((s) => INTERACTIVE_SCRIPT.test(s))) return null;
  const shown = scripts.find((s) => !INTERACTIVE_SCRIPT.test(s)) ?? '';
  return ['side_door', 'medium', `${program} runs "${shown.trim().slice(0, 60)}" through an option meant for something else`];
}

/** `sudo -i`, `sudo -s`, `doas -s`, bare `pkexec`, `su`, `su -`, `su USER`, `machinectl shell`, `run0`. */
function userShell(c: ShellCommand): Hit | null {
  const u = c.unwrapped;
  const bareElevation = u.wrappers.length > 0 && u.programPath === u.wrappers[u.wrappers.length - 1] && u.args.length === 0;
  if (
    bareElevation &&
    ['sudo', 'doas'].includes(u.program) &&
    c.argv.some((a) => /^-[a-zA-Z]*[is]|^--(?:login|shell)$/.test(a) && !/^-[a-zA-Z]*[lvkKV]/.test(a))
  )
    return ['user_shell', 'medium', `${u.program} opens an interactive root shell`];
  if (bareElevation && u.program === 'pkexec') return ['user_shell', 'medium', 'pkexec with no command opens a root shell'];
  if (u.program === 'run0' && flagsOf(u.args).operands.length === 0) return ['user_shell', 'medium', 'run0 with no command opens a root shell'];
  if (u.program === 'machinectl' && u.args.includes('shell')) return ['user_shell', 'medium', 'machinectl shell opens a shell as another user'];
  if (u.program === 'su' && !u.args.some((a) => /^-[a-zA-Z]*c$|^--command|^--session-command|^-[hV]$|^--(?:help|version)$/.test(a))) {
    const user =
      u.args.filter((a, k) => !a.startsWith('-') && !/^-[sgGw]$|^--(?:shell|group|supp-group|whitelist-environment)$/.test(u.args[k - 1] ?? ''))[0] ?? 'root';
    return ['user_shell', 'medium', `su opens an interactive shell as ${user}`];
  }
  return null;
}

/** Code that loads a shared library into a running program. */
const LOAD_LIBRARY_CODE =
  /\b(?:ctypes\.(?:cdll|CDLL|windll|WinDLL|pydll|PyDLL)|cdll\.LoadLibrary|CDLL\s*\(|dlopen\s*\(|DynaLoader|Fiddle\.dlopen|ffi\.load\s*\(|process\.dlopen\s*\(|load_extension\s*\()/;

function libraryLoad(c: ShellCommand): Hit | null {
  const { program, args } = c.unwrapped;
  const value = (names: string[]) => {
    const k = args.findIndex((a) => names.includes(a));
    return k >= 0 ? (args[k + 1] ?? '') : (args.find((a) => names.some((n) => n.startsWith('--') && a.startsWith(`${n}=`)))?.split('=')[1] ?? null);
  };
  if (program === 'ssh-keygen' && value(['-D']) !== null) return ['library_injection', 'high', `ssh-keygen -D loads ${value(['-D'])} as a PKCS#11 library`];
  if (program === 'ssh' && (value(['-I']) !== null || args.some((a) => /(?:PKCS11Provider|SecurityKeyProvider)\s*=/i.test(a))))
    return ['library_injection', 'high', 'ssh loads a PKCS#11 or security key library'];
  const engine = program === 'openssl' ? value(['-engine']) : null;
  if (engine !== null && /\/|\.so\b|\.dylib\b/.test(engine)) return ['library_injection', 'high', `openssl loads ${engine} as an engine`];
  if (program === 'sqlite3' && args.some((a) => /(?:^|[\n;])\s*\.load\s+\S/.test(a)))
    return ['library_injection', 'high', 'sqlite3 loads an extension library'];
  if (program === 'gdb' && args.some((a) => /\bcall\s+\(?\s*(?:\(void\s*\*\)\s*)?(?:__libc_)?dlopen\s*\(/.test(a)))
    return ['library_injection', 'high', 'gdb loads a library into a process'];
  if (INTERPRETERS.has(program.replace(/[0-9.]+$/, '')) && !SHELL_PROGRAMS.has(program) && LOAD_LIBRARY_CODE.test(interpreterCode(program, args) ?? ''))
    return ['library_injection', 'high', `${program} one-liner loads a shared library`];
  return null;
}

/** Code that makes its process root: `os.setuid(0)`, `POSIX::setuid(0)`, `Process::Sys.setuid(0)`, `process.setuid(0)`, `posix_setuid(0)`. */
const BECOME_ROOT = /\b(?:set(?:e|re|res)?uid|Process::Sys\.setuid|posix_setuid)\s*\(\s*0\s*[,)]|\$[<>]\s*=\s*0\b/;

function becomeRoot(c: ShellCommand): Hit | null {
  const { program, args } = c.unwrapped;
  if (!INTERPRETERS.has(program.replace(/[0-9.]+$/, '')) || SHELL_PROGRAMS.has(program)) return null;
  return BECOME_ROOT.test(interpreterCode(program, args) ?? '')
    ? ['user_shell', 'high', `${program} one-liner makes its process root (setuid(0)), as a setuid or capable interpreter can`]
    : null;
}

/** `install -m 4755 x /usr/local/bin/x`: the setuid bit set on the copy. */
function setuidInstall(c: ShellCommand): Hit | null {
  const { program, args } = c.unwrapped;
  if (program !== 'install') return null;
  const k = args.findIndex((a) => a === '-m' || a === '--mode' || a.startsWith('--mode=') || /^-m\S/.test(a));
  if (k < 0) return null;
  const a = args[k];
  const mode = a === '-m' || a === '--mode' ? (args[k + 1] ?? '') : a.startsWith('--mode=') ? a.slice(7) : a.slice(2);
  return /^[2467][0-7]{3}$|^[ugoa]*\+[rwx]*s/.test(mode) ? ['setuid', 'high', `install sets the setuid/setgid bit (mode ${mode})`] : null;
}

/** gawk `/inet/tcp/…` socket whose lines are run as commands: a reverse shell without a shell in sight. */
function awkSocketShell(c: ShellCommand): Hit | null {
  if (!/^(?:g|m|n)?awk$/.test(c.unwrapped.program)) return null;
  const code = awkCode(c.unwrapped.args) ?? '';
  if (!/\/inet[46]?\/(?:tcp|udp)\//.test(code)) return null;
  // A command held in a variable other than the socket: `system(c)`, `c | getline`, `print | c`.
  const sockets = new Set([...code.matchAll(/([A-Za-z_]\w*)\s*=\s*"\/inet/g)].map((m) => m[1]));
  const plain = code.replace(/"[^"]*"/g, '""');
  const commandVars = [
    ...[...plain.matchAll(/\bsystem\s*\(\s*([A-Za-z_]\w*)/g)].map((m) => m[1]),
    ...[...plain.matchAll(/([A-Za-z_]\w*)\s*\|&?\s*getline/g)].map((m) => m[1]),
    ...[...plain.matchAll(/\|&?\s*([A-Za-z_]\w*)/g)].map((m) => m[1]),
  ];
  return commandVars.some((v) => !sockets.has(v) && v !== 'getline')
    ? ['reverse_shell', 'critical', 'awk runs commands it reads from a network socket (reverse shell)']
    : null;
}

/** A typed escape (`!/bin/sh`, `:!sh`, `\\! sh`) or an interpreter line that starts a shell with no script. */
const TYPED_ESCAPE = /(?:^|[\s;'"(])(?::?!|\\!)\s*(?:\/(?:usr\/)?bin\/)?(?:ba|z|da|k|tc|c)?sh(?=[\s'";)]|$)/m;
const SPAWN_SHELL_CODE = /\bpty\.spawn\s*\(|\bexec\s+['"]?\/bin\/(?:ba|z|da)?sh\b(?!\s+-c)/;

/** Does this text, given to a program as code or input, start an interactive shell? */
export function startsShell(text: string): boolean {
  const t = text.slice(0, 8192);
  return TYPED_ESCAPE.test(t) || SPAWN_SHELL_CODE.test(t) || shellCallsIn(t).some((s) => INTERACTIVE_SCRIPT.test(s));
}

/**
 * Code that starts a shell written to a file or fed to a program (`echo 'os.execute("/bin/sh")'
 * > $TF; nmap --script=$TF`, `echo '!sh' | ftp`): the payload is there whatever runs it.
 */
function shellPayload(c: ShellCommand, pipeline: readonly ShellCommand[]): Hit | null {
  const k = pipeline.indexOf(c);
  if (k < 0) return null;
  const written = c.redirects.some((r) => /^(?:>|>>|>\|)$/.test(r.op));
  // The text this command writes (its pipeline so far) or reads from the stages before it.
  const wrote = written ? literalOutput(pipeline.slice(0, k + 1)) : null;
  const fed = k > 0 && !SHELL_PROGRAMS.has(c.unwrapped.program) ? literalOutput(pipeline.slice(0, k)) : null;
  const here = c.redirects.find((r) => r.op === '<<<')?.target ?? null;
  if (wrote !== null && startsShell(wrote)) return ['shell_escape', 'high', 'writes code that starts an interactive shell to a file (a shell escape payload)'];
  if ((fed !== null && startsShell(fed)) || (here !== null && !SHELL_PROGRAMS.has(c.unwrapped.program) && startsShell(here)))
    return ['shell_escape', 'high', `feeds ${c.unwrapped.program || 'a program'} input that starts an interactive shell (a shell escape)`];
  return null;
}

export function shellEscapeRisks(c: ShellCommand, pipeline: readonly ShellCommand[] = [c]): CommandRisk[] {
  return [shellEscape(c), userShell(c), becomeRoot(c), sideDoor(c), libraryLoad(c), setuidInstall(c), awkSocketShell(c), shellPayload(c, pipeline)]
    .filter((h): h is Hit => h !== null)
    .map(([rule, severity, description]) => ({ rule, severity, description, command: c, category: 'dangerous_command' }));
}
