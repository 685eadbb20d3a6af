/**
 * Reverse and bind shells judged by what they do, whatever the program: code that connects a
 * socket and starts a process (in any argument, for any language: `crystal eval`, Go written by
 * `echo`), a shell named as the value of an option of a program that is also given a remote
 * endpoint (`rcat connect -s sh HOST PORT`, like `nc -e sh`), and a shell whose input and output
 * are both a descriptor opened elsewhere (`zsh >&$REPLY 0>&$REPLY` after `ztcp`, `sh <&3 >&3`).
 */
import { SHELL_PROGRAMS } from '../shell/shell-command';
import { ShellCommand } from '../shell/shell-parser';

/** A call that connects to an address or port written in it: `connect("10.0.0.7",9001)`, `net.Dial("tcp","h:80")`. */
const CONNECT_CALL =
  /(?:\bconnect|\bdial|\bfsockopen|tcpsocket\.(?:new|open)|socket\.tcp|tcpstream::connect|socket::inet->new)\s{0,3}\(\s{0,3}[^)]{0,120}?(?:\b\d{1,3}(?:\.\d{1,3}){3}\b|["'][\w.-]+["']\s{0,3},\s{0,3}["']?\d{2,5}\b|:\d{2,5}["'])/i;
/** The same word names a socket or the network (so a call named `connect` in prose is not enough). */
const NETWORK_WORD = /sock|tcp|\bnet\b|dial/i;
/** A call that starts a process or hands a descriptor to one, or a backtick command (PHP, Perl, Ruby). */
const SPAWN_CALL =
  /(?:\bexec(?:\.command|[lv]p?e?)?|\bsystem|\bpopen|\bspawn|process\.new|\bdup2|\bpassthru|shell_exec|proc_open|\bexecute|\bcommand)\s{0,3}\(|`[^`]{0,200}\b(?:sh|bash|zsh)\b[^`]{0,200}`/i;

/** Code in an argument (of any program, not only a known interpreter) that wires a network connection to a process. */
export function socketToProcessCode(c: ShellCommand): string | null {
  const word = c.unwrapped.args.find((a) => a.length >= 20 && CONNECT_CALL.test(a) && NETWORK_WORD.test(a) && SPAWN_CALL.test(a));
  return word === undefined ? null : `code given to ${c.unwrapped.program} connects to a remote host and starts a process with it (reverse shell)`;
}

const SHELL_NAME = /^(?:\/(?:usr\/)?(?:local\/)?bin\/)?(?:sh|bash|zsh|dash|ksh|ash|mksh|fish|tcsh|csh|cmd|pwsh|powershell)(?:\.exe)?$/;
const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;
/** `10.0.0.7 9001`, `host:9001`, `tcp://host:9001`, `-p 9001`: somewhere on the network to talk to. */
function endpoint(args: readonly string[]): boolean {
  return args.some(
    (a, i) =>
      /^(?:[a-z]+:\/\/)?[\w.-]+:\d{2,5}$/i.test(a) ||
      (IPV4.test(a) && /^\d{2,5}$/.test(args[i + 1] ?? '')) ||
      (/^-[a-z]*p$/i.test(a) && /^\d{2,5}$/.test(args[i + 1] ?? '')),
  );
}

/** A shell given as an option's value (`-s sh`, `-e /bin/bash`, `--exec=sh`) to a program that also names a network endpoint. */
export function shellHandedToNetwork(c: ShellCommand): string | null {
  const { program, args } = c.unwrapped;
  if (SHELL_PROGRAMS.has(program)) return null;
  const handed = args.some((a, i) =>
    /^-[a-z]$/i.test(a) || /^--[a-z-]+$/i.test(a) ? SHELL_NAME.test(args[i + 1] ?? '') : /^--[a-z-]+=/i.test(a) && SHELL_NAME.test(a.slice(a.indexOf('=') + 1)),
  );
  return handed && endpoint(args) ? `${program} is handed a shell to run and a network endpoint (reverse/bind shell)` : null;
}

/** A shell with no script whose stdin and stdout are both a descriptor other than 0-2: it is driven through a channel opened elsewhere. */
export function shellOnDescriptor(c: ShellCommand): string | null {
  const u = c.unwrapped;
  if (!SHELL_PROGRAMS.has(u.program) || u.args.some((a) => !a.startsWith('-') || /^-[a-z]*c/i.test(a))) return null;
  const dup = (r: { op: string; target: string }) => /^(?:<&|>&|<>)$/.test(r.op) && !/^(?:[012]|-)$/.test(r.target);
  const input = c.redirects.some((r) => dup(r) && (r.fd === '0' || (r.fd === '' && r.op !== '>&')));
  const output = c.redirects.some((r) => dup(r) && (r.fd === '1' || (r.fd === '' && r.op !== '<&')));
  return input && output ? `${u.program} reads its commands from and writes to a descriptor opened elsewhere (a socket: reverse shell)` : null;
}
