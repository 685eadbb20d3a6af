/**
 * The code of interpreter one-liners (`python3 -Sc CODE`, `node -p CODE`, `perl -E CODE`,
 * `php -r CODE`, `ruby -r lib -e CODE`) and the shell commands that code hands to the OS.
 * Each interpreter's own option syntax is followed, so `node -r module` or
 * `php -c php.ini` is not mistaken for code, and attached code (`python -c"..."`) is not missed.
 */

interface InterpreterOptions {
  /** Short options whose value is code. */
  code: string;
  /** Short options that take a value (attached, or else the next argument). */
  value?: string;
  /** Short options that take an optional value attached only (`perl -i.bak`, `-MIO::Socket`). */
  attached?: string;
  /** Short options followed by optional digits in the same cluster (`perl -0777 -lne`). */
  digits?: string;
  /** Short options after which the arguments belong to a module (`python -m`). */
  stop?: string;
  /** Short options are flags only, values never attached: node reads `-pe CODE` as `-p -e CODE`. */
  split?: boolean;
  long?: Readonly<Record<string, 'code' | 'value'>>;
}

const NODE_LIKE: InterpreterOptions = {
  code: 'ep',
  value: 'rC',
  split: true,
  long: {
    '--eval': 'code',
    '--print': 'code',
    '--require': 'value',
    '--import': 'value',
    '--conditions': 'value',
    '--input-type': 'value',
    '--loader': 'value',
    '--experimental-loader': 'value',
    '--env-file': 'value',
    '--title': 'value',
  },
};

const OPTIONS: Readonly<Record<string, InterpreterOptions>> = {
  python: { code: 'c', value: 'WXQ', stop: 'm', long: { '--check-hash-based-pycs': 'value' } },
  node: NODE_LIKE,
  nodejs: NODE_LIKE,
  bun: NODE_LIKE,
  perl: { code: 'eE', attached: 'iIMmxdDFC', digits: 'l0' },
  ruby: { code: 'e', value: 'rICE', attached: 'Fx0TWiK', long: { '--require': 'value', '--encoding': 'value' } },
  php: { code: 'rBRE', value: 'cdfzFSt' },
  lua: { code: 'e', value: 'l' },
  osascript: { code: 'e', value: 'l' },
};

/** All code given on the command line (joined by newlines), or null when there is none. */
export function interpreterCode(program: string, args: readonly string[]): string | null {
  const name = program.replace(/[0-9.]+$/, '');
  if (name === 'deno') return args[0] === 'eval' ? (args.slice(1).find((a) => !a.startsWith('-')) ?? null) : null;
  const spec = OPTIONS[program] ?? OPTIONS[name];
  // Others (pwsh, powershell: single-dash long options) keep the generic -e/-c/-r rule.
  if (!spec) {
    const k = args.findIndex((a) => /^-[a-z]*[ecr]$/i.test(a) || a === '--eval');
    return k >= 0 ? (args[k + 1] ?? null) : null;
  }
  const code: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    // The first operand is the script file (or `-`, stdin): options end there.
    if (a === '--' || !a.startsWith('-') || a === '-') break;
    const eq = a.indexOf('=');
    const long = spec.long?.[(eq < 0 ? a : a.slice(0, eq)).toLowerCase()];
    if (long || a.startsWith('--')) {
      if (long === 'code') code.push(eq < 0 ? (args[++i] ?? '') : a.slice(eq + 1));
      else if (long === 'value' && eq < 0) i++;
      continue;
    }
    const cluster = readCluster(a, spec);
    if (cluster.code !== undefined) code.push(cluster.code);
    if (cluster.stop) break;
    if (cluster.wantsCode) code.push(args[++i] ?? '');
    if (cluster.wantsValue) i++;
  }
  return code.length > 0 ? code.join('\n') : null;
}

function readCluster(a: string, spec: InterpreterOptions): { code?: string; wantsCode?: boolean; wantsValue?: boolean; stop?: boolean } {
  let wantsCode = false;
  for (let k = 1; k < a.length; k++) {
    const ch = a[k];
    const rest = a.slice(k + 1);
    if (spec.code.includes(ch)) {
      if (!spec.split && rest !== '') return { code: rest };
      wantsCode = true;
      if (!spec.split) break;
    } else if (spec.value?.includes(ch)) {
      return { wantsCode, wantsValue: spec.split || rest === '' };
    } else if (spec.attached?.includes(ch)) {
      break;
    } else if (spec.digits?.includes(ch)) {
      k += /^[0-9]*/.exec(rest)?.[0].length ?? 0;
    } else if (spec.stop?.includes(ch)) {
      return { stop: true };
    }
  }
  return { wantsCode };
}

const SHELL_CALL =
  /\b(?:system|popen|exec[a-z]{0,4}|execSync|spawn|spawnSync|check_output|check_call|call|run|Popen|getoutput|getstatusoutput|shell_exec|passthru|proc_open)\s{0,3}\(\s{0,3}(?:\[([^\]]{1,2000})\]|(['"`])([^'"`]{1,2000})\2)/g;
/** Perl and Ruby call without parentheses: `exec "/bin/sh"`, `system 'id'`. */
const BARE_CALL = /(?:^|[;{\s])(?:exec|system)\s{1,3}(['"])([^'"]{1,2000})\1/g;
/** AppleScript hands a string to sh without parentheses. */
const DO_SHELL_SCRIPT = /\bdo shell script\s{1,3}"([^"]{1,2000})"/gi;

/** Shell commands a one-liner hands to the OS: os.system('rm -rf /'), subprocess.run(['rm', '-rf', '/']). */
export function shellCallsIn(code: string): string[] {
  const out: string[] = [];
  const text = code.slice(0, 8192);
  for (const m of text.matchAll(SHELL_CALL)) {
    if (m[3] !== undefined) out.push(m[3]);
    else if (m[1] !== undefined) out.push([...m[1].matchAll(/(['"])([^'"]{0,500})\1/g)].map((x) => x[2]).join(' '));
    if (out.length >= 8) break;
  }
  for (const m of text.matchAll(BARE_CALL)) if (out.length < 8) out.push(m[2]);
  for (const m of text.matchAll(DO_SHELL_SCRIPT)) if (out.length < 8) out.push(m[1]);
  return out.filter((x) => x.trim() !== '');
}
