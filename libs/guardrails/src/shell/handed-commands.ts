/**
 * A command line handed to a program through an option, for programs whose options this
 * engine does not know one by one: `PROG -c 'cmd'`, `PROG -e 'cmd'`, `PROG --exec='cmd'`,
 * `PROG --command "cmd"`, `PROG --on-error 'cmd'`, `sg grp -c 'cmd'`, `xterm -e 'cmd'`.
 * Programs that take such options run the value with a shell (their manuals say so: watchers,
 * launchers, terminals, job runners, hooks), so it is analysed like `bash -c`. A value counts
 * only when it reads as a command line (a shell by name or path, or several words starting
 * with a program name), so `head -c 100`, `curl -e https://ref`, `ffmpeg -c copy` hand none.
 * Programs whose options are known keep their precise rules (`exec-options.ts`,
 * `interpreter-code.ts`, the wrappers), and text tools whose `-e`/`-c` is a pattern or a count
 * are left out.
 */
import { WRAPPERS } from './shell-wrappers';

const MAX_HANDED = 4;

/** Short options that hand a command line to many programs. */
const SHORT_COMMAND_OPTIONS = new Set(['-c', '-e', '-x']);
/**
 * Long options named for the command they take: `--exec`, `--run`, `--run-command`, `--post-build-hook`,
 * `--on-error`, `--onSuccess`; not flags that say what not to run (`--no-exec`, `--skip-hooks`).
 */
const LONG_COMMAND_OPTION =
  /^--(?!(?:no|skip|disable|without)-)(?:[a-z0-9]+-)*(?:exec|execute|command|cmd|eval|hook)$|^--run$|^--on-[a-z][a-z-]*$|^--on[A-Z][A-Za-z]*$/;

/** Programs judged by rules of their own, or whose `-c`/`-e`/`-x` value is no command (a pattern, a count, a codec, a variable). */
const NOT_HANDED = new Set([
  // followed precisely elsewhere (wrappers, shells, interpreters and command-option programs are checked by their lists)
  ...['su', 'runuser', 'sudo', 'tar', 'bsdtar', 'gtar', 'rsync', 'zip', 'ssh', 'scp', 'sftp', 'git', 'gdb', 'emacs', 'sqlite3', 'mysql', 'mariadb'],
  ...['psql', 'make', 'gmake', 'expect', 'man', 'tmux', 'script', 'parallel', 'find', 'nc', 'ncat', 'netcat', 'socat', 'vi', 'vim', 'nvim', 'view'],
  ...['ex', 'rvim', 'rview', 'gvim', 'evim', 'vimdiff'],
  // text tools: the value is a pattern, a script in their own language, a count or a set of characters
  ...['echo', 'printf', 'grep', 'egrep', 'fgrep', 'zgrep', 'rg', 'ag', 'ack', 'sed', 'gsed', 'awk', 'gawk', 'mawk', 'nawk', 'jq', 'yq', 'tr'],
  ...['cut', 'wc', 'head', 'tail', 'sort', 'uniq', 'nl', 'column', 'fold', 'split', 'csplit', 'od', 'hexdump', 'xxd', 'base64', 'md5sum'],
  ...['sha1sum', 'sha256sum', 'sha512sum', 'cksum', 'cmp', 'diff', 'patch', 'dc', 'bc', 'units', 'date', 'ls', 'du', 'df', 'ps', 'cp', 'mv'],
  // compressors (-c: to stdout), compilers (-c: compile only, -e: entry, -x: language), media and network tools
  ...['gzip', 'gunzip', 'zcat', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'lz4', 'pigz', 'unzip', '7z', 'gcc', 'cc', 'clang', 'g++', 'c++'],
  ...['ld', 'as', 'cmake', 'ffmpeg', 'ffprobe', 'convert', 'magick', 'curl', 'wget', 'ping', 'iptables', 'ip6tables', 'openssl'],
  // containers and clusters: -e is an environment variable, the command runs inside
  ...['docker', 'podman', 'nerdctl', 'kubectl', 'oc', 'helm', 'npm', 'npx', 'yarn', 'pnpm', 'mvn', 'gradle', 'java', 'javac', 'go', 'cargo'],
]);

/** Terminals run the command line they are given for the user; a shell there is the user's own. */
export const TERMINALS = new Set([
  ...['xterm', 'uxterm', 'gnome-terminal', 'konsole', 'alacritty', 'kitty', 'wezterm', 'terminator', 'tilix', 'xfce4-terminal', 'urxvt'],
  ...['rxvt', 'st', 'lxterminal', 'mate-terminal', 'qterminal', 'terminology', 'foot', 'sakura', 'guake', 'tilda', 'x-terminal-emulator'],
]);

const SHELL_WORD = /^(?:\S*\/)?(?:ba|z|da|k|c|tc|a|mk|fi)?sh$/;
/** The first word of a command line: a program name or path, not a number, an option or a key=value. */
const PROGRAM_WORD = /^(?:\.{0,2}\/[\w./+-]*|~\/[\w./+-]*|[a-z_][\w.+-]*)$/i;

/** Does this option value read as a command line rather than a name, a number or a pattern? */
function commandLine(value: string): boolean {
  const v = value.trim();
  if (v === '') return false;
  const words = v.split(/\s+/);
  if (words.length === 1) return SHELL_WORD.test(v);
  return PROGRAM_WORD.test(words[0]) && !/^\d/.test(words[0]);
}

/** A word as the shell would need it written to come back as one word. */
function shellQuote(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

function isCommandOption(name: string): boolean {
  return SHORT_COMMAND_OPTIONS.has(name) || LONG_COMMAND_OPTION.test(name);
}

/** The command lines `program` is handed through its options, with how reasons name them; [] when none. */
/**
 * The command lines `program` is handed through its options, with how reasons name them; [] when
 * none. `known`: the caller already follows this program's commands (a shell, an interpreter, a
 * program with known command options).
 */
export function handedCommandLines(program: string, args: readonly string[], known: boolean): Array<{ script: string; via: string }> {
  if (program === '' || known || NOT_HANDED.has(program) || WRAPPERS[program] !== undefined) return [];
  const terminal = TERMINALS.has(program);
  const via = terminal ? `${program} (a terminal running a command)` : `${program} (a command line it is handed)`;
  const out: Array<{ script: string; via: string }> = [];
  for (let k = 0; k < args.length && out.length < MAX_HANDED; k++) {
    const a = args[k];
    // A terminal runs the rest of its arguments: `xterm -e cmd args`, `gnome-terminal -- cmd args`, `-x cmd args`.
    if (terminal && (a === '--' || ((a === '-e' || a === '-x') && k + 2 < args.length))) {
      if (k + 1 < args.length)
        out.push({
          script: args
            .slice(k + 1)
            .map(shellQuote)
            .join(' '),
          via,
        });
      break;
    }
    if (a === '--') break;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (!isCommandOption(name)) continue;
    const value = eq > 0 ? a.slice(eq + 1) : args[k + 1];
    if (value === undefined || !commandLine(value)) continue;
    out.push({ script: value, via });
    if (eq < 0) k++;
  }
  return out;
}
