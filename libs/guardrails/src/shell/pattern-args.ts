/**
 * Arguments a program reads as a pattern or a script, never as a file to open: the name and
 * path tests of `find` (`-name '.*'`, `-path '/etc/*'`), the pattern of `grep`, the script of
 * `sed` and the program of `awk`. `find . -name '.env*'` looks for files by name; it reads
 * none, so its pattern is no path (the search itself is judged by the rules that know it).
 */

const FIND_PATTERN_TESTS = /^-(?:i?name|i?path|i?wholename|i?regex|i?lname)$/;
const GREP = /^(?:grep|egrep|fgrep|zgrep|rg|ag|ack)$/;
/** grep options whose value is a pattern (or a glob of names to include). */
const GREP_PATTERN_OPTIONS = /^(?:-e|--regexp|--include|--exclude|--exclude-dir|-g|--glob|--iglob)$/;
const GREP_PATTERN_FILE = /^(?:-f|--file)$/;
const SED = /^g?sed$/;
const AWK = /^(?:g|m|n)?awk$/;

/** Indexes of `args` that are patterns or scripts for `program`. */
export function patternArgs(program: string, args: readonly string[]): Set<number> {
  const out = new Set<number>();
  if (program === 'find') {
    args.forEach((a, k) => {
      if (FIND_PATTERN_TESTS.test(args[k - 1] ?? '')) out.add(k);
    });
    return out;
  }
  const grep = GREP.test(program);
  const sed = SED.test(program);
  const awk = AWK.test(program);
  if (!grep && !sed && !awk) return out;
  // The first operand is the pattern or script unless one was given by an option.
  let given = false;
  let first = -1;
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a === '--') {
      if (first < 0 && !given && k + 1 < args.length) first = k + 1;
      break;
    }
    if ((grep && GREP_PATTERN_OPTIONS.test(a)) || (sed && /^(?:-e|--expression)$/.test(a))) {
      given = true;
      out.add(++k);
    } else if ((grep && GREP_PATTERN_FILE.test(a)) || ((sed || awk) && /^(?:-f|--file)$/.test(a))) {
      given = true;
      k++;
    } else if (grep && /^--(?:regexp|include|exclude|exclude-dir|glob)=/.test(a)) {
      if (a.startsWith('--regexp=')) given = true;
      out.add(k);
    } else if ((awk && /^-[vF]$/.test(a)) || (grep && /^-[ABCmdD]$|^--(?:max-count|context|after-context|before-context)$/.test(a))) {
      k++;
    } else if (first < 0 && !a.startsWith('-')) {
      first = k;
    }
  }
  if (!given && first >= 0) out.add(first);
  return out;
}
