/**
 * What a simple command really runs: wrappers (`sudo`, `env VAR=x`, `nohup`, `timeout 5`,
 * `xargs`...) are peeled off, the program is reduced to its lowercased basename
 * (`/usr/bin/RM` -> `rm`), and scripts hidden in arguments (`bash -c`, `eval`, `su -c`,
 * `ssh host cmd`, `find -exec`, `flock -c`, `tmux new-session`, `parallel ... :::`,
 * interpreter one-liners) are surfaced for the parser to analyse.
 */
import { findStarts, withFoundPaths } from './found-paths';
import { handedCommandLines } from './handed-commands';
import { interpreterCode, shellCallsIn } from './interpreter-code';
import { launcherScripts, readsArgsFromStdin } from './launcher-scripts';
import { UNKNOWN_EXPANSION } from './shell-lexer';
import { skipWrapper, WRAPPERS } from './shell-wrappers';

export const SHELL_PROGRAMS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'rbash', 'fish', 'tcsh', 'csh']);
export const INTERPRETERS: ReadonlySet<string> = new Set([
  ...SHELL_PROGRAMS,
  'python',
  'python2',
  'python3',
  'perl',
  'ruby',
  'node',
  'nodejs',
  'php',
  'lua',
  'deno',
  'bun',
  'pwsh',
  'powershell',
  'osascript',
  'jrunscript',
]);

/** Programs a globbed name (`/???/r?`) may resolve to; the first match wins. */
const KNOWN_PROGRAMS = [
  'rm',
  'dd',
  'sh',
  'nc',
  'cp',
  'mv',
  'ln',
  'su',
  'bash',
  'mkfs',
  'shred',
  'curl',
  'wget',
  'chmod',
  'chown',
  'python3',
  'python',
  'perl',
  'ruby',
  'ncat',
  'netcat',
  'socat',
  'wipefs',
  'cat',
  'base64',
];

const LOADER = /^ld(?:-linux(?:-[\w-]+)?|-musl-[\w-]+)?\.so(?:\.\d+)?$/;
const USER_PROGRAMS: Readonly<Record<string, string>> = { SHELL: 'sh', EDITOR: 'vi', VISUAL: 'vi', PAGER: 'less' };

export interface UnwrappedCommand {
  /** Lowercased basename of what actually runs, '' when nothing does. */
  program: string;
  /** argv[0] of what runs, as written. */
  programPath: string;
  args: string[];
  wrappers: string[];
  elevated: boolean;
  /** The program name is only known at run time (`$X`, `$(...)`, an unknown glob). */
  dynamicProgram: boolean;
  /** `xargs`, `parallel`: more arguments arrive on stdin. */
  argsFromStdin: boolean;
  /** Scripts given to a wrapper's own options (`flock -c`, `runuser -c`), with the wrapper's name. */
  wrapperScripts: Array<{ script: string; wrapper: string }>;
}

function baseName(p: string): string {
  const parts = p.split('/');
  return (parts[parts.length - 1] || p).toLowerCase().replace(/\.exe$/, '');
}

function hasGlob(s: string): boolean {
  return /[*?]|\[[^\]]+\]/.test(s);
}

function globToRegExp(glob: string): RegExp | null {
  if (glob.length > 64) return null;
  let re = '';
  for (const ch of glob) re += ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : ch.replace(/[.+^${}()|\\\]]/g, '\\$&').replace('[', '\\[');
  return new RegExp(`^${re}$`);
}

export function unwrapCommand(argv: readonly string[], dynamic: readonly boolean[] = []): UnwrappedCommand {
  const wrappers: string[] = [];
  let elevated = false;
  let argsFromStdin = false;
  const wrapperScripts: UnwrappedCommand['wrapperScripts'] = [];
  let i = 0;
  let words = [...argv];
  let dyn = [...dynamic];
  for (let guard = 0; guard < 12 && i < words.length; guard++) {
    // The dynamic loader runs the program it is given (`/lib64/ld-linux-x86-64.so.2 /bin/sh`).
    const name = LOADER.test(baseName(words[i])) ? 'ld.so' : baseName(words[i]);
    if (name === 'env') {
      const s = words.findIndex((w, k) => k > i && (w === '-S' || w.startsWith('--split-string')));
      if (s > 0) {
        const value = words[s].includes('=') ? words[s].slice(words[s].indexOf('=') + 1) : (words[s + 1] ?? '');
        const skip = words[s].includes('=') ? 1 : 2;
        words = [...words.slice(0, s), ...value.split(/\s+/).filter(Boolean), ...words.slice(s + skip)];
        dyn = [];
      }
    }
    if ((name === 'command' || name === 'builtin') && /^-[a-z]*[vV]/.test(words[i + 1] ?? '')) break;
    const spec = WRAPPERS[name];
    if (!spec) break;
    wrappers.push(name);
    elevated ||= spec.elevated === true;
    argsFromStdin ||= name === 'xargs';
    const skipped = skipWrapper(words, i + 1, spec);
    for (const script of skipped.scripts) wrapperScripts.push({ script, wrapper: name });
    i = skipped.index;
  }
  // A wrapper with nothing to wrap is itself the program: `env` prints the environment, `sudo -i` opens a root shell.
  const bare = i >= words.length && wrappers.length > 0;
  const programPath = bare ? wrappers[wrappers.length - 1] : (words[i] ?? '');
  let program = baseName(programPath);
  let dynamicProgram = dyn[i] === true;
  if (program !== '' && hasGlob(program)) {
    const re = globToRegExp(program);
    const resolved = re ? KNOWN_PROGRAMS.find((p) => re.test(p)) : undefined;
    program = resolved ?? program;
    dynamicProgram = true;
  }
  if (bare && program === 'xargs') program = 'echo';
  // The user's own configured programs, not code computed at run time.
  const configured = USER_PROGRAMS[programPath.replace(/^\$\{?([A-Z]+)\}?$/, '$1')];
  if (configured !== undefined && /^\$\{?[A-Z]+\}?$/.test(programPath)) {
    program = configured;
    dynamicProgram = false;
  }
  const args = bare ? [] : words.slice(i + 1);
  argsFromStdin ||= readsArgsFromStdin(program, args);
  return { program, programPath, args, wrappers, elevated, dynamicProgram, argsFromStdin, wrapperScripts };
}

export interface NestedScript {
  script?: string;
  argv?: string[];
  via: string;
}

const SSH_ARG_OPTIONS = new Set(['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w']);

/** Scripts and commands hidden in a command's arguments, to be analysed one level deeper. */
export function nestedScripts(u: UnwrappedCommand, herestring: string | null): NestedScript[] {
  const { program, args } = u;
  const out: NestedScript[] = [];
  if (/\s/.test(u.programPath.trim())) out.push({ script: [u.programPath, ...args].join(' '), via: 'a quoted command' });
  if (SHELL_PROGRAMS.has(program) || (program === 'busybox' && args[0] === 'sh')) {
    const rest = program === 'busybox' ? args.slice(1) : args;
    const c = rest.findIndex((a) => /^-[a-z]*c[a-z]*$/i.test(a) || a === '--command' || a.startsWith('--command='));
    if (c >= 0) {
      const script = rest[c].startsWith('--command=') ? rest[c].slice(10) : rest.slice(c + 1).find((a) => !a.startsWith('-') || a === '-');
      if (script !== undefined) out.push({ script, via: `${program} -c` });
    }
    if (herestring !== null) out.push({ script: herestring, via: `${program} <<<` });
  }
  for (const w of u.wrapperScripts) out.push({ script: w.script, via: `${w.wrapper} -c` });
  const launched = launcherScripts(program, args);
  out.push(...launched);
  const known = launched.length > 0 || INTERPRETERS.has(program.replace(/[0-9.]+$/, '')) || INTERPRETERS.has(program);
  out.push(...handedCommandLines(program, args, known));
  if (program === 'eval' && args.length > 0) out.push({ script: args.join(' '), via: 'eval' });
  if (program === 'su') {
    const c = args.findIndex((a) => a === '-c' || a === '--command' || a.startsWith('--command='));
    if (c >= 0) out.push({ script: args[c].startsWith('--command=') ? args[c].slice(10) : (args[c + 1] ?? ''), via: 'su -c' });
  }
  if (program === 'ssh') {
    let k = 0;
    while (k < args.length && args[k].startsWith('-')) k += SSH_ARG_OPTIONS.has(args[k]) ? 2 : 1;
    if (k + 1 < args.length) out.push({ script: args.slice(k + 1).join(' '), via: 'ssh (remote command)' });
  }
  if (program === 'find') {
    for (let k = 0; k < args.length; k++) {
      if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[k])) continue;
      const end = args.findIndex((a, j) => j > k && (a === ';' || a === '+'));
      const argv = args.slice(k + 1, end < 0 ? args.length : end);
      // The command runs once per file found: `{}` is a file under each starting point.
      const found = argv.some((w) => w.includes('{}')) ? withFoundPaths(argv, '{}', findStarts(args)) : [null];
      for (const f of found.filter((x, j) => x !== null || found.indexOf(null) === j))
        if (argv.length > 0) out.push({ argv: f ?? argv, via: `find ${args[k]}` });
      if (end < 0) break;
      k = end;
    }
  }
  if (program === 'alias') {
    for (const a of args) {
      const eq = a.indexOf('=');
      if (eq > 0) out.push({ script: a.slice(eq + 1), via: 'alias' });
    }
  }
  if (program === 'trap' && args[0] !== undefined && !args[0].startsWith('-')) out.push({ script: args[0], via: 'trap' });
  const code = INTERPRETERS.has(program.replace(/[0-9.]+$/, '')) && !SHELL_PROGRAMS.has(program) ? interpreterCode(program, args) : null;
  if (code !== null) for (const script of shellCallsIn(code)) out.push({ script, via: `${program} code` });
  return out.filter((n) => n.script === undefined || hasContent(n.script));
}

/** A script that is nothing but unknown expansions has nothing to analyse. */
function hasContent(script: string): boolean {
  return script.split(UNKNOWN_EXPANSION).join('').trim() !== '';
}

/** Short flags of `args` (before `--`), both `-rf` clusters and long `--recursive` forms. */
export function flagsOf(args: readonly string[]): { short: Set<string>; long: Set<string>; operands: string[] } {
  const short = new Set<string>();
  const long = new Set<string>();
  const operands: string[] = [];
  let ended = false;
  for (const a of args) {
    if (ended || a === '-' || !a.startsWith('-')) {
      operands.push(a);
    } else if (a === '--') {
      ended = true;
    } else if (a.startsWith('--')) {
      long.add(a.split('=')[0].toLowerCase());
    } else {
      for (const ch of a.slice(1)) short.add(ch);
    }
  }
  return { short, long, operands };
}
