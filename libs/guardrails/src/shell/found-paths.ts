/**
 * Paths a program finds and hands on: `find START… -exec CMD {} \;` runs CMD once per file
 * found under each START, and `find START… | xargs CMD` (or `grep -rl PATTERN DIR | xargs
 * CMD`) appends them to CMD. The engine has no file system, so a file found under START is
 * `START/⟨…⟩`: a name only known at run time, in a known directory, which the system
 * zones and credential rules judge by that directory (`find /usr/lib -exec chmod 777 {} +`
 * changes permissions in /usr).
 */
import { UNKNOWN_EXPANSION } from './shell-lexer';

/** At most this many starting points are followed (each gives one command to analyse). */
export const MAX_FOUND_STARTS = 4;
const FIND_LEADING_OPTIONS = /^-(?:[HLP]|O\d*)$/;
/** Where the expression of `find` starts: a test, an action, an operator. */
const EXPRESSION = /^(?:-|\(|\)|!|,)/;

/** A file found under `start`, or null when the start itself is only known at run time. */
export function foundUnder(start: string): string | null {
  if (start.includes(UNKNOWN_EXPANSION) || start.includes('$') || start === '') return null;
  return `${start.replace(/\/+$/, '')}/${UNKNOWN_EXPANSION}`;
}

/** The starting points of `find` (its operands before the expression); `.` when none is given. */
export function findStarts(args: readonly string[]): string[] {
  let k = 0;
  while (k < args.length && (FIND_LEADING_OPTIONS.test(args[k]) || args[k] === '-D')) k += args[k] === '-D' ? 2 : 1;
  const starts: string[] = [];
  for (; k < args.length && !EXPRESSION.test(args[k]); k++) starts.push(args[k]);
  return starts.length > 0 ? starts : ['.'];
}

/** One argv per file found under each start, with `{}` replaced by it (null: a start only known at run time). */
export function withFoundPaths(argv: readonly string[], placeholder: string, starts: readonly string[]): Array<string[] | null> {
  return starts.slice(0, MAX_FOUND_STARTS).map((s) => {
    const found = foundUnder(s);
    return found === null ? null : argv.map((w) => w.split(placeholder).join(found));
  });
}

const GREP = /^(?:grep|egrep|fgrep|rg|ag)$/;
const GREP_PATTERN_OPTIONS = new Set(['-e', '-f', '--regexp', '--file']);
const GREP_VALUE_OPTIONS = new Set([
  '-e',
  '-f',
  '-m',
  '-A',
  '-B',
  '-C',
  '--regexp',
  '--file',
  '--max-count',
  '--include',
  '--exclude',
  '-g',
  '--glob',
  '-t',
  '--type',
]);

/**
 * The paths a command prints one per line, as directories they lie under: `find` (without
 * `-printf`, `-exec`, `-fprint`, which print something else), `grep -l`/`-L` and `rg -l`
 * (files under their operands). Null when the command prints something else.
 */
export function printedPathRoots(program: string, args: readonly string[]): string[] | null {
  if (program === 'find') {
    if (args.some((a) => /^-(?:printf|fprint\w*|exec|execdir|ok|okdir|ls|fls)$/.test(a))) return null;
    return findStarts(args);
  }
  if (!GREP.test(program) || !args.some((a) => /^-[a-zA-Z]*[lL]|^--files-with(?:out)?-match/.test(a))) return null;
  const operands: string[] = [];
  let patternGiven = false;
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (GREP_VALUE_OPTIONS.has(a)) {
      patternGiven ||= GREP_PATTERN_OPTIONS.has(a);
      k++;
    } else if (/^--(?:regexp|file)=/.test(a)) patternGiven = true;
    else if (!a.startsWith('-') || a === '-') operands.push(a);
  }
  const roots = patternGiven ? operands : operands.slice(1);
  return roots.length > 0 ? roots : program === 'rg' || program === 'ag' ? ['.'] : null;
}

/** The replace string of an `xargs` in `argv` (`-I X`, `-IX`, `-i`, `--replace[=X]`), else null (inputs are appended). */
export function xargsReplaceString(argv: readonly string[]): string | null {
  const at = argv.findIndex((w) => w.split('/').pop() === 'xargs');
  if (at < 0) return null;
  for (let k = at + 1; k < argv.length && argv[k].startsWith('-'); k++) {
    const a = argv[k];
    if (a === '-I') return argv[k + 1] ?? null;
    if (a.startsWith('-I')) return a.slice(2);
    if (a === '-i' || a === '--replace') return '{}';
    if (a.startsWith('--replace=')) return a.slice('--replace='.length);
    if (a.startsWith('-i')) return a.slice(2);
    if (/^-[nLPdEsa]$|^--(?:max-args|max-procs|delimiter|arg-file|eof|max-chars)$/.test(a)) k++;
  }
  return null;
}
