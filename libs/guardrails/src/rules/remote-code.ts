/** Built-in rules for remote code and remote control: curl | sh, running downloads, reverse shells. */
import { normalizePath } from '../paths/path-normalizer';
import { interpreterCode } from '../shell/interpreter-code';
import { flagsOf, SHELL_PROGRAMS } from '../shell/shell-command';
import { canonicalPipeline, isInterpreter, ShellCommand } from '../shell/shell-parser';
import { CommandRisk } from './command-risk';
import { shellHandedToNetwork, shellOnDescriptor, socketToProcessCode } from './remote-control';

const NETWORK_TOOLS = new Set(['nc', 'ncat', 'netcat', 'nc.traditional', 'nc.openbsd', 'telnet', 'socat', 'openssl']);

const DOWNLOADERS = new Set([
  'curl',
  'wget',
  'fetch',
  'http',
  'https',
  'httpie',
  'xh',
  'aria2c',
  'lynx',
  'lwp-request',
  'nc',
  'ncat',
  'netcat',
  'iwr',
  'invoke-webrequest',
]);

const DECODERS: ReadonlyArray<[string, (a: string[]) => boolean]> = [
  ['base64', (a) => a.some((x) => x === '-d' || x === '--decode' || x === '-D')],
  ['base32', (a) => a.some((x) => x === '-d' || x === '--decode')],
  ['b64decode', () => true],
  ['xxd', (a) => a.includes('-r')],
  ['openssl', (a) => a.includes('-d') || a.includes('base64')],
  ['gunzip', () => true],
  ['zcat', () => true],
  ['rev', () => true],
];

export function codeArgument(c: ShellCommand): string | null {
  const { program, args } = c.unwrapped;
  if (!isInterpreter(c.unwrapped) || SHELL_PROGRAMS.has(program)) return null;
  return interpreterCode(program, args);
}

export function reverseShell(c: ShellCommand, pipeline: ShellCommand[]): string | null {
  const { program, args } = c.unwrapped;
  const words = [...args, ...c.redirects.map((r) => r.target)];
  if (words.some((w) => /\/dev\/(?:tcp|udp)\//i.test(w))) {
    const interactive = SHELL_PROGRAMS.has(program) || program === 'exec' || program === '' || c.redirects.some((r) => r.op === '>&' || r.op === '<&');
    if (interactive) return 'connects a shell to a remote host through /dev/tcp (reverse shell)';
  }
  if (/^(?:nc|ncat|netcat|nc\.traditional|nc\.openbsd)$/.test(program)) {
    const f = flagsOf(args);
    if (f.short.has('e') || f.short.has('c') || f.long.has('--exec') || f.long.has('--sh-exec') || f.long.has('--lua-exec'))
      return `${program} -e hands a shell to the network (reverse/bind shell)`;
  }
  if (program === 'socat' && args.some((a) => /^(?:exec|system):/i.test(a))) return 'socat connects a program to the network (reverse shell)';
  const code = codeArgument(c)?.toLowerCase();
  if (code) {
    const socket = /socket|fsockopen|tcpsocket|require\(['"]net['"]\)|net\.connect|io::socket/.test(code);
    const spawn = /subprocess|pty\.spawn|os\.dup2|exec|popen|\bsystem\b|fdopen|spawn|proc_open|passthru|\/bin\/(?:ba)?sh|child_process/.test(code);
    if (socket && spawn) return `${program} one-liner wires a socket to a shell (reverse shell)`;
  }
  const other = socketToProcessCode(c) ?? shellHandedToNetwork(c) ?? shellOnDescriptor(c);
  if (other) return other;
  if (pipeline.length > 1) {
    const hasShell = pipeline.some((s) => SHELL_PROGRAMS.has(s.unwrapped.program));
    const net = pipeline.find((s) => NETWORK_TOOLS.has(s.unwrapped.program) && !(s.unwrapped.program === 'openssl' && !s.unwrapped.args.includes('s_client')));
    if (hasShell && net && c === pipeline[0]) return `pipes a shell through ${net.unwrapped.program} (reverse shell)`;
  }
  return null;
}

export function isDownloader(c: ShellCommand): boolean {
  return DOWNLOADERS.has(c.unwrapped.program);
}

export function decoderName(c: ShellCommand): string | null {
  const d = DECODERS.find(([name, test]) => c.unwrapped.program === name && test(c.unwrapped.args));
  return d ? d[0] : null;
}

/** Stdin becomes code: `curl ... | sh`, `base64 -d | bash`, `wget -O- | python3`. */
export function pipeToInterpreter(c: ShellCommand, pipeline: ShellCommand[]): CommandRisk[] {
  const k = pipeline.indexOf(c);
  const u = c.unwrapped;
  const readsStdin = SHELL_PROGRAMS.has(u.program)
    ? u.args.includes('-s') || u.args.includes('-') || !u.args.some((a) => !a.startsWith('-'))
    : isInterpreter(u) && (u.args.length === 0 || u.args.includes('-'));
  if (k <= 0 || !readsStdin) return [];
  const upstream = pipeline.slice(0, k);
  const dl = upstream.find(isDownloader);
  const shown = canonicalPipeline(pipeline);
  if (dl)
    return [
      {
        rule: 'pipe_to_interpreter',
        severity: 'high',
        description: `pipes a download (${dl.unwrapped.program}) straight into ${u.program}`,
        command: c,
        shown,
        category: 'dangerous_command',
      },
    ];
  const dec = upstream.map(decoderName).find((d) => d !== null);
  if (dec)
    return [
      {
        rule: 'pipe_to_interpreter',
        severity: 'high',
        description: `pipes ${dec}-decoded data into ${u.program} (hidden script)`,
        command: c,
        shown,
        category: 'dangerous_command',
      },
    ];
  return [];
}

/** `bash -c "$(curl ...)"`, `sh <(wget -O- ...)`, `eval "$(curl ...)"`, `source <(curl ...)`. */
export function substitutedDownloadRuns(c: ShellCommand): CommandRisk[] {
  const u = c.unwrapped;
  const runsCode = isInterpreter(u) || ['eval', 'source', '.'].includes(u.program);
  const dl = runsCode ? c.substituted.find(isDownloader) : undefined;
  return dl
    ? [
        {
          rule: 'remote_code',
          severity: 'high',
          description: `runs code downloaded by ${dl.unwrapped.program} in ${u.program}`,
          command: c,
          category: 'dangerous_command',
        },
      ]
    : [];
}

/** Files a pipeline writes from decoded data: `echo ... | base64 -d > /tmp/x`. */
export function decodedFiles(c: ShellCommand, pipeline: ShellCommand[]): string[] {
  if (c !== pipeline[pipeline.length - 1] || !pipeline.some((s) => decoderName(s) !== null)) return [];
  return c.redirects.filter((r) => r.op === '>' || r.op === '>>' || r.op === '>|').map((r) => normalizePath(r.target, c.cwd).key);
}

/** Short options of curl / wget that take a value; the output file is `o` for curl, `O` for wget. */
const FETCH_VALUE_LETTERS: Readonly<Record<string, { letters: string; output: string; remoteName: string }>> = {
  curl: { letters: 'dHXAeFTbcKwmrCExUtyYzQDPo', output: 'o', remoteName: 'O' },
  wget: { letters: 'oaeiBtOTwQPUlARDIX', output: 'O', remoteName: '' },
};

/** Where curl / wget write: `-o f`, `-sLo f`, `-of`, `--output=f`, `-O` (the URL's name), or '-' for stdout. */
function fetchOutputs(program: 'curl' | 'wget', args: readonly string[]): string[] {
  const spec = FETCH_VALUE_LETTERS[program];
  const out: string[] = [];
  let remoteName = program === 'wget';
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (['--output', '--output-document'].includes(a)) out.push(args[++i] ?? '');
    else if (/^--output(?:-document)?=/.test(a)) out.push(a.slice(a.indexOf('=') + 1));
    else if (a === '--remote-name' || a === '--remote-name-all') remoteName = true;
    else if (/^-[^-]/.test(a)) {
      for (let k = 1; k < a.length; k++) {
        if (a[k] === spec.remoteName) remoteName = true;
        if (!spec.letters.includes(a[k])) continue;
        if (a[k] === spec.output) out.push(k + 1 < a.length ? a.slice(k + 1) : (args[++i] ?? ''));
        else if (k + 1 === a.length) i++;
        break;
      }
    }
  }
  if (out.length > 0) return out;
  if (!remoteName) return ['-'];
  const names: string[] = [];
  for (const a of args) {
    const m = /^[a-z]+:\/\/[^/\s]+\/(?:[^\s?#]*\/)?([^/\s?#]+)/i.exec(a);
    if (m) names.push(m[1]);
  }
  return names;
}

const STDOUT_REDIRECT = /^(?:>|>>|>\||&>|&>>)$/;

/**
 * Files holding downloaded content: what curl / wget write themselves, and, when a
 * download goes to stdout, whatever its pipeline saves (`> i.sh`, `| tee i.sh`,
 * `| gunzip > x`).
 */
export function downloadedFiles(c: ShellCommand, pipeline: readonly ShellCommand[] = [c]): string[] {
  const { program, args } = c.unwrapped;
  const files = program === 'curl' || program === 'wget' ? fetchOutputs(program, args) : [];
  const upstream = pipeline.slice(0, pipeline.indexOf(c) + 1);
  if (
    upstream.some(
      (s) =>
        isDownloader(s) &&
        (!['curl', 'wget'].includes(s.unwrapped.program) || fetchOutputs(s.unwrapped.program as 'curl' | 'wget', s.unwrapped.args).includes('-')),
    )
  ) {
    files.push(...c.redirects.filter((r) => STDOUT_REDIRECT.test(r.op) && r.fd !== '2').map((r) => r.target));
    if (program === 'tee' && c !== upstream[0]) files.push(...flagsOf(args).operands);
  }
  return files.filter((f) => f !== '' && f !== '-' && !/^\/dev\/(?:null|stdout|stderr)$/.test(f)).map((f) => normalizePath(f, c.cwd).key);
}

export function runsFile(c: ShellCommand, files: ReadonlySet<string>): string | null {
  const u = c.unwrapped;
  const candidates = [
    u.programPath,
    ...(isInterpreter(u) || u.program === 'source' || u.program === '.' ? u.args.filter((a) => !a.startsWith('-')).slice(0, 1) : []),
  ];
  for (const cand of candidates) {
    if (cand && files.has(normalizePath(cand, c.cwd).key)) return cand;
  }
  return null;
}

const EXTRACTORS = /^(?:tar|bsdtar|gtar|unzip|7z|7za|unrar)$/;

/**
 * Directories a downloaded archive is extracted into (`tar -xf x.tgz -C dir`, `unzip x.zip -d dir`,
 * else the working directory): what runs from under them afterwards came from the download.
 */
export function extractedDirs(c: ShellCommand, downloaded: ReadonlySet<string>): string[] {
  const { program, args } = c.unwrapped;
  if (!EXTRACTORS.test(program) || downloaded.size === 0) return [];
  if (program.endsWith('tar') && !args.some((a) => /^-?[a-zA-Z]*x/.test(a) || a === '--extract')) return [];
  if (/^7za?$/.test(program) && !['x', 'e'].includes(args[0] ?? '')) return [];
  const archive = args.find((a) => !a.startsWith('-') && downloaded.has(normalizePath(a, c.cwd).key));
  if (archive === undefined) return [];
  const k = args.findIndex((a) => a === '-C' || a === '--directory' || a === '-d');
  const dir = k >= 0 ? args[k + 1] : (args.find((a) => /^--directory=|^-o\S/.test(a))?.replace(/^--directory=|^-o/, '') ?? c.cwd);
  return dir === undefined ? [] : [normalizePath(dir, c.cwd).key];
}

/** `./xmrig-6.11.2/xmrig` run after the archive it came in was downloaded and extracted here. */
export function runsExtracted(c: ShellCommand, dirs: ReadonlySet<string>): string | null {
  const p = c.unwrapped.programPath;
  if (dirs.size === 0 || !p.includes('/')) return null;
  const key = normalizePath(p, c.cwd).key;
  for (const d of dirs) if (key.startsWith(d === '/' ? '/' : `${d}/`)) return p;
  return null;
}
