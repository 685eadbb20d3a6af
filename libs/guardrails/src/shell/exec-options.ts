/**
 * Options whose value is a command line the program hands to a shell, per program: what
 * `--checkpoint-action=exec=`, `rsync -e`, `zip -TT`, `ssh -o ProxyCommand=`, `git -c
 * core.pager=`, `gdb -ex '!…'`, `vim -c ':!…'`, `sqlite3 '.shell …'` and the like run. The
 * scripts are analysed like `bash -c`, so every rule applies to them, and a shell started
 * there with no script is a shell escape (`rules/shell-escape.ts`).
 */
import type { LauncherScript } from './launcher-scripts';

const MAX_SCRIPTS = 8;

/** `--name=value`, `--name value`, `-x value`, `-xvalue` for the given option names. */
function optionValues(args: readonly string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length && out.length < MAX_SCRIPTS; i++) {
    const a = args[i];
    for (const n of names) {
      if (a === n) out.push(args[i + 1] ?? '');
      else if (n.startsWith('--') && a.startsWith(`${n}=`)) out.push(a.slice(n.length + 1));
      else if (/^-[A-Za-z]$/.test(n) && a.startsWith(n) && a.length > 2 && !a.startsWith('--')) out.push(a.slice(2));
    }
  }
  return out;
}

/** tar options that run a program: checkpoint actions, compressors, `--to-command`, volume scripts, remote shells. */
function tarScripts(args: readonly string[]): string[] {
  return [...optionValues(args, ['--to-command', '--use-compress-program', '-I', '--rsh-command']), ...tarSideDoors(args)];
}

/** Checkpoint actions and volume-change scripts: hooks for progress and tapes, not for running work. */
function tarSideDoors(args: readonly string[]): string[] {
  const out = optionValues(args, ['--info-script', '--new-volume-script', '-F']);
  for (const v of optionValues(args, ['--checkpoint-action'])) if (/^exec=/.test(v)) out.push(v.slice(5));
  return out;
}

/** `-o ProxyCommand=…`, `-oLocalCommand …`, `-o 'ProxyCommand …'` (ssh, scp, sftp); `scp -S program`. */
function sshScripts(program: string, args: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of optionValues(args, ['-o'])) {
    const m = /^\s*(ProxyCommand|LocalCommand|KnownHostsCommand|RemoteCommand)\s*[=\s]\s*([\s\S]*)$/i.exec(v);
    // RemoteCommand runs on the other machine; it is still what the agent asks to run.
    if (m && m[2].trim() !== '' && m[2].trim().toLowerCase() !== 'none') out.push(m[2]);
  }
  if (program === 'scp' || program === 'sftp') out.push(...optionValues(args, ['-S']));
  return out;
}

/** Git settings whose value is run by a shell, and subcommands that run commands. */
const GIT_COMMAND_SETTINGS =
  /^(?:core\.(?:pager|editor|sshcommand|fsmonitor|hookspath_)|pager\.[\w.-]+|sequence\.editor|diff\.external|diff\.[\w.-]+\.(?:command|textconv)|merge\.[\w.-]+\.driver|filter\.[\w.-]+\.(?:clean|smudge|process)|credential\.helper|gpg\.program|uploadpack\.packobjectshook)$/i;

function gitScripts(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of optionValues(args, ['-c', '--config-env'])) {
    const eq = v.indexOf('=');
    if (eq < 0) continue;
    const key = v.slice(0, eq);
    const value = v.slice(eq + 1);
    // `alias.x=!cmd` is a shell command; other aliases are git subcommands.
    if (/^alias\./i.test(key) && value.startsWith('!')) out.push(value.slice(1));
    else if (GIT_COMMAND_SETTINGS.test(key) && !/^credential\./i.test(key)) out.push(value);
  }
  out.push(
    ...optionValues(args, ['--upload-pack', '--receive-pack', '--exec', '--tree-filter', '--index-filter', '--msg-filter', '--env-filter', '--commit-filter']),
  );
  const sub = args.findIndex((a) => /^(?:rebase|bisect|submodule)$/.test(a));
  if (sub >= 0 && args[sub] === 'rebase') out.push(...optionValues(args.slice(sub + 1), ['--exec', '-x']));
  if (sub >= 0 && args[sub] === 'bisect' && args[sub + 1] === 'run') out.push(args.slice(sub + 2).join(' '));
  if (sub >= 0 && args[sub] === 'submodule' && args[sub + 1] === 'foreach')
    out.push(
      args
        .slice(sub + 2)
        .filter((a) => a !== '--recursive')
        .join(' '),
    );
  return out;
}

/** An ex command line (vim `-c`, `+cmd`, `--cmd`): `:!cmd`, `:sh`, `:terminal`, `:py …`, `:call system(…)`. */
function exCommand(line: string): string[] {
  const out: string[] = [];
  for (const part of line.split(/\s*\|\s*(?=:|!|sh|py|lua|call|term|silent)/).slice(0, MAX_SCRIPTS)) {
    const cmd = part.replace(/^[\s:]+/, '').replace(/^silent!?\s+/, '');
    if (cmd.startsWith('!')) out.push(cmd.slice(1));
    else if (/^(?:sh|shell|term|terminal)\s*$/.test(cmd)) out.push('sh');
    else if (/^(?:term|terminal)\s+\S/.test(cmd)) out.push(cmd.replace(/^(?:term|terminal)\s+/, ''));
    else if (/^(?:py|python|py3|python3|pyx|pythonx)\s/.test(cmd)) out.push(`python3 -c ${quote(cmd.replace(/^\S+\s+/, ''))}`);
    else if (/^lua\s/.test(cmd)) out.push(`lua -e ${quote(cmd.slice(4))}`);
    else if (/^(?:call|echo|exe|execute)\s/.test(cmd)) {
      for (const m of cmd.matchAll(/\bsystem(?:list)?\s*\(\s*(['"])([^'"]{1,2000})\1/g)) out.push(m[2]);
    }
  }
  return out;
}

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function vimScripts(args: readonly string[]): string[] {
  const lines = [...optionValues(args, ['-c', '--cmd']), ...args.filter((a) => a.startsWith('+') && a.length > 1).map((a) => a.slice(1))];
  return lines.flatMap(exCommand);
}

/** gdb `-ex '!cmd'`, `-ex 'shell cmd'`, `-ex 'python …'`. */
function gdbScripts(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of optionValues(args, ['-ex', '--ex', '-iex', '--iex', '-eval-command', '--eval-command'])) {
    const t = v.trim();
    if (t.startsWith('!')) out.push(t.slice(1));
    else if (/^shell\s/.test(t)) out.push(t.slice(6));
    else if (/^(?:python|py|python-interactive|pi)\s/.test(t)) out.push(`python3 -c ${quote(t.replace(/^\S+\s+/, ''))}`);
  }
  return out;
}

/** Emacs Lisp handing a program to run: `(term "/bin/sh")`, `(shell-command "…")`, `(call-process "…")`. */
function emacsScripts(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of optionValues(args, ['--eval'])) {
    for (const m of v.matchAll(
      /\((?:term|ansi-term|shell-command|async-shell-command|call-process|call-process-shell-command|start-process-shell-command)\s+"([^"]{1,2000})"/g,
    ))
      out.push(m[1]);
    for (const m of v.matchAll(/\(start-process\s+"[^"]*"\s+(?:nil|"[^"]*")\s+"([^"]{1,2000})"/g)) out.push(m[1]);
  }
  return out;
}

/** Client dot-commands and backslash commands that run a shell: sqlite3 `.shell`/`.system`, mysql `\!`/`system`, psql `\!`. */
function clientScripts(program: string, args: readonly string[]): string[] {
  const out: string[] = [];
  const texts = program === 'sqlite3' ? args.filter((a) => !a.startsWith('-') || a === '-cmd') : optionValues(args, ['-e', '--execute', '-c', '--command']);
  if (program === 'sqlite3') texts.push(...optionValues(args, ['-cmd']));
  for (const t of texts) {
    for (const line of t.split(/\n|;(?=\s*[.\\])/)) {
      const l = line.trim();
      const m = /^(?:\.(?:shell|system)|\\!|system)\s+([\s\S]+)$/.exec(l);
      if (m) out.push(m[1]);
      else if (l === '\\!' || l === '.shell') out.push('sh');
    }
  }
  return out;
}

/** make `--eval`: recipe lines (after a tab) are shell commands. */
function makeScripts(args: readonly string[]): string[] {
  return optionValues(args, ['--eval', '-E'])
    .flatMap((v) => v.split('\n').filter((l) => l.startsWith('\t')))
    .map((l) => l.replace(/^\t[-@+]*/, ''));
}

/** expect `-c 'spawn cmd …; interact'`. */
function expectScripts(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of optionValues(args, ['-c'])) for (const m of v.matchAll(/\bspawn\s+((?:-\S+\s+)*)([^;\n]{1,2000})/g)) out.push(m[2]);
  return out;
}

/** awk code handing commands to a shell: `system("…")`, `print | "cmd"`, `"cmd" | getline`. */
function awkScripts(args: readonly string[]): string[] {
  const code = awkCode(args);
  if (code === null) return [];
  const out: string[] = [];
  for (const m of code.slice(0, 8192).matchAll(/\bsystem\s*\(\s*"([^"]{1,2000})"|\|&?\s*"([^"]{1,2000})"|"([^"]{1,2000})"\s*\|&?\s*getline/g)) {
    const s = m[1] ?? m[2] ?? m[3];
    if (!/^\/inet\d?\//.test(s)) out.push(s);
  }
  return out;
}

/** The program text of an awk command line: the first operand, unless `-f` names a file. */
export function awkCode(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return args[i + 1] ?? null;
    if (/^-(?:f|-file)$/.test(a) || a.startsWith('--file=')) return null;
    if (/^-[FvW]$|^--(?:assign|field-separator)$/.test(a)) i++;
    else if (!a.startsWith('-') || a === '-') return a;
  }
  return null;
}

/** GNU sed `e` runs the pattern space or the given command: `sed -n '1e exec sh 1>&0' f`, `s/x/y/e`. */
function sedScripts(args: readonly string[]): string[] {
  const scripts = optionValues(args, ['-e', '--expression']);
  if (scripts.length === 0) {
    const first = args.find((a) => !a.startsWith('-'));
    if (first !== undefined) scripts.push(first);
  }
  const out: string[] = [];
  for (const s of scripts) for (const m of s.matchAll(/(?:^|[;{\n])\s*(?:\d+|\$|\/[^/\n]{0,200}\/)?\s*e\s+([^;}\n]{1,2000})/g)) out.push(m[1]);
  return out;
}

const VIM_FAMILY = /^(?:vi|vim|nvim|view|rvim|rview|vimdiff|gvim|ex|evim)$/;

/**
 * Commands run through a side door: an option of a program whose job is not running
 * commands (an archiver's checkpoint hook, zip's test command, sed's `e`, an editor's or a
 * debugger's or a database client's shell escape, make --eval). Awk's `system()`, rsync -e,
 * ssh ProxyCommand, git's pager and expect's `spawn` are what those programs are for.
 */
export function sideDoorScripts(program: string, args: readonly string[]): string[] {
  if (program === 'tar' || program === 'bsdtar' || program === 'gtar') return tarSideDoors(args);
  if (program === 'zip') return optionValues(args, ['-TT', '--unzip-command']);
  if (program === 'sed' || program === 'gsed') return sedScripts(args);
  if (VIM_FAMILY.test(program)) return vimScripts(args);
  if (program === 'gdb') return gdbScripts(args);
  if (program === 'emacs') return emacsScripts(args);
  if (program === 'sqlite3' || program === 'mysql' || program === 'mariadb' || program === 'psql') return clientScripts(program, args);
  if (program === 'make' || program === 'gmake') return makeScripts(args);
  return [];
}

export function execOptionScripts(program: string, args: readonly string[]): LauncherScript[] {
  let scripts: string[] = [];
  if (program === 'tar' || program === 'bsdtar' || program === 'gtar') scripts = tarScripts(args);
  else if (program === 'rsync') scripts = optionValues(args, ['-e', '--rsh', '--rsync-path']);
  else if (program === 'zip') scripts = optionValues(args, ['-TT', '--unzip-command']);
  else if (program === 'ssh' || program === 'scp' || program === 'sftp') scripts = sshScripts(program, args);
  else if (program === 'git') scripts = gitScripts(args);
  else if (VIM_FAMILY.test(program)) scripts = vimScripts(args);
  else if (program === 'gdb') scripts = gdbScripts(args);
  else if (program === 'emacs') scripts = emacsScripts(args);
  else if (program === 'sqlite3' || program === 'mysql' || program === 'mariadb' || program === 'psql') scripts = clientScripts(program, args);
  else if (program === 'make' || program === 'gmake') scripts = makeScripts(args);
  else if (program === 'expect') scripts = expectScripts(args);
  else if (/^(?:g|m|n|busybox-)?awk$/.test(program)) scripts = awkScripts(args);
  else if (program === 'sed' || program === 'gsed') scripts = sedScripts(args);
  else if (program === 'man') scripts = optionValues(args, ['-P', '--pager', '-H', '--html']);
  return scripts
    .filter((s) => s.trim() !== '')
    .slice(0, MAX_SCRIPTS)
    .map((script) => ({ script, via: `${program} (a command it runs)` }));
}
