/**
 * Files a program reads or writes that are not plain operands, for any program: an output
 * option (`-o FILE`, `-oFILE`, `--save FILE`, `--dump=FILE`), an archive being created
 * (`zip ARCHIVE …`, `tar -cf ARCHIVE`, `7z a ARCHIVE`, `cpio -o -O ARCHIVE`), the output operand
 * of programs whose manual gives them one (`uniq IN OUT`, `xxd IN OUT`, `dos2unix -n IN OUT`),
 * a path glued to a short option (`-f/etc/shadow`), socat's file addresses (`FILE:/etc/shadow`,
 * `CREATE:/etc/x`) and SQL naming a file (`LOAD_FILE('/f')`, `INTO OUTFILE '/f'`, sqlite3
 * `.output /f`, `.read /f`). A program pointed at a file through any of these reads or writes
 * it, whatever the program is for.
 */

export interface FileUse {
  raw: string;
  verb: 'read' | 'write';
}

/** Programs whose `-o` is a flag or takes something other than an output file (a format, an option, a column list). */
const O_NOT_OUTPUT = new Set([
  ...['ls', 'dir', 'grep', 'egrep', 'fgrep', 'zgrep', 'rg', 'ag', 'ps', 'find', 'xargs', 'mount', 'umount', 'ssh', 'scp', 'sftp', 'ssh-keygen'],
  ...['lsblk', 'findmnt', 'df', 'join', 'cpio', 'tar', 'bsdtar', 'unzip', 'zip', 'pkill', 'pgrep', 'lsof', 'ss', 'netstat', 'ip', 'top', 'htop'],
  ...['rsync', 'useradd', 'usermod', 'groupadd', 'bash', 'sh', 'zsh', 'dash', 'ksh', 'set', 'apt', 'apt-get', 'dpkg', 'strings', 'od', 'hexdump'],
  ...['pr', 'kubectl', 'oc', 'helm', 'yq', 'java', 'mpv', 'nmap', 'fuser', 'iostat', 'vmstat', 'sar', 'pidstat', 'blkid', 'lspci', 'lsusb', 'sysctl'],
]);
/** Long options that name a file the program writes, beyond `--output` and its kin (path-actions.ts). */
const LONG_OUTPUTS =
  /^--(?:out|outdir|out-dir|output-to|save|save-as|save-to|save-file|write-to|dump|dump-file|dump-to|export-to|dest|destination|target-dir|target-file|log|logfile-path|pidfile|pid-file|report-file|trace-file)$/;
/** Programs that write their second operand (`uniq IN OUT`, `xxd [-r] IN OUT`). */
const SECOND_OPERAND_OUTPUT = new Set(['uniq', 'xxd']);

function isPathLike(v: string): boolean {
  return /^(?:\/|~\/|\.\.?\/|\$HOME\/)/.test(v) || (v.includes('/') && !v.startsWith('-') && !v.includes('://'));
}

/** Operands: words that are not options (options with a value are not known here, so a value may count). */
function operands(args: readonly string[]): string[] {
  const end = args.indexOf('--');
  const before = end < 0 ? args : args.slice(0, end);
  return [...before.filter((a) => !a.startsWith('-')), ...(end < 0 ? [] : args.slice(end + 1))];
}

function archiveOutputs(program: string, args: readonly string[]): string[] {
  if (program === 'zip') return operands(args).slice(0, 1);
  if (program === 'tar' || program === 'bsdtar' || program === 'gtar') {
    // A mode letter in an option cluster, or in the first word of the old style (`tar czf out.tgz dir`).
    const creates =
      args.some((a, k) => (a.startsWith('-') || k === 0) && /^-?[A-Za-z]*[cruA][A-Za-z]*$/.test(a) && !a.startsWith('--')) ||
      args.some((a) => /^--(?:create|append|update|concatenate)$/.test(a));
    if (!creates) return [];
    const out: string[] = [];
    args.forEach((a, k) => {
      if (a === '--file') out.push(args[k + 1] ?? '');
      else if (a.startsWith('--file=')) out.push(a.slice(7));
      // `-cf ARCHIVE`, `cvf ARCHIVE`: the value of f comes next when f ends the cluster.
      else if (/^-?[A-Za-z]*f$/.test(a) && !a.startsWith('--') && (k === 0 || a.startsWith('-'))) out.push(args[k + 1] ?? '');
    });
    return out;
  }
  if ((program === '7z' || program === '7za' || program === '7zr') && /^(?:a|u|d)$/.test(args[0] ?? '')) return operands(args.slice(1)).slice(0, 1);
  if (program === 'ar' && /^-?[a-z]*[rqd]/.test(args[0] ?? '')) return operands(args.slice(1)).slice(0, 1);
  if (program === 'cpio' && args.some((a) => /^-[a-zA-Z]*o|^--create$/.test(a))) {
    const out: string[] = [];
    args.forEach((a, k) => {
      if (a === '-O' || a === '-F' || a === '--file') out.push(args[k + 1] ?? '');
      else if (/^--file=/.test(a)) out.push(a.slice(7));
    });
    return out;
  }
  return [];
}

function positionalOutputs(program: string, args: readonly string[]): string[] {
  const ops = operands(args);
  if (SECOND_OPERAND_OUTPUT.has(program)) return ops.slice(1, 2);
  if ((program === 'dos2unix' || program === 'unix2dos') && args.some((a) => a === '-n' || a === '--newfile')) return ops.filter((_o, k) => k % 2 === 1);
  if (program === 'cpio' && args.some((a) => /^-[a-zA-Z]*p|^--pass-through$/.test(a))) return ops.slice(-1);
  if (program === 'script' && !args.some((a) => a === '-c' || a === '--command')) return ops.slice(0, 1);
  return [];
}

/** Options that name an output file in one program's manual: nmap `-oN|-oX|-oG|-oS|-oA FILE`, screen `-Logfile FILE`. */
const PROGRAM_OUTPUTS: Readonly<Record<string, RegExp>> = { nmap: /^-o[NXGSA]$/, screen: /^-Logfile$/ };

/** Output options of any program: `-o FILE`/`-oFILE` (unless its -o means something else) and long names for output files. */
function outputOptions(program: string, args: readonly string[]): string[] {
  const out: string[] = [];
  args.forEach((a, k) => {
    const next = args[k + 1];
    if (PROGRAM_OUTPUTS[program]?.test(a) && next !== undefined) out.push(next);
    else if (a === '-o' && !O_NOT_OUTPUT.has(program) && next !== undefined) out.push(next);
    else if (/^-o[/~.]/.test(a) && !O_NOT_OUTPUT.has(program)) out.push(a.slice(2));
    else if (LONG_OUTPUTS.test(a) && next !== undefined) out.push(next);
    else if (a.startsWith('--') && LONG_OUTPUTS.test(a.slice(0, a.indexOf('=') < 0 ? a.length : a.indexOf('=')))) out.push(a.slice(a.indexOf('=') + 1));
  });
  return out;
}

/** socat `FILE:/p`, `OPEN:/p`, `GOPEN:/p`, `CREATE:/p` (options after a comma): the last address is written, CREATE always. */
function socatFiles(program: string, args: readonly string[]): FileUse[] {
  if (program !== 'socat') return [];
  const addresses = operands(args);
  const out: FileUse[] = [];
  addresses.forEach((a, k) => {
    const m = /^(file|open|gopen|create):([^,]+)/i.exec(a);
    if (m) out.push({ raw: m[2], verb: /^create$/i.test(m[1]) || (k === addresses.length - 1 && addresses.length > 1) ? 'write' : 'read' });
  });
  return out;
}

const SQL_CLIENTS = /^(?:mysql|mariadb|psql|sqlite3)$/;
const SQL_READS =
  /(?:\bload_file\s*\(\s*|\bload\s+data\s+(?:local\s+)?infile\s+|\bpg_read_file\s*\(\s*|\bcopy\s+\w+\s+from\s+|(?:^|[\s;])\.read\s+|(?:^|[\s;])\.import\s+(?:--\w+\s+)*)['"]?((?:\/|~\/)[^'"\s;)]{1,256})/gi;
const SQL_WRITES =
  /(?:\binto\s+(?:outfile|dumpfile)\s+|\bcopy\s+[\w()\s,]+\s+to\s+|(?:^|[\s;])\.(?:output|once|save|backup)\s+(?:--\w+\s+)*|\battach\s+(?:database\s+)?)['"]?((?:\/|~\/)[^'"\s;)]{1,256})/gi;

function sqlFiles(program: string, args: readonly string[]): FileUse[] {
  if (!SQL_CLIENTS.test(program)) return [];
  const out: FileUse[] = [];
  for (const a of args.slice(0, 16)) {
    const text = a.slice(0, 8192);
    for (const m of text.matchAll(SQL_READS)) out.push({ raw: m[1], verb: 'read' });
    for (const m of text.matchAll(SQL_WRITES)) out.push({ raw: m[1], verb: 'write' });
  }
  return out;
}

/** `-f/etc/shadow`, `-i~/.ssh/id_rsa`: a path glued to a one-letter option is that option's file. */
export function attachedPath(a: string): string | null {
  const m = /^-[A-Za-z]((?:\/|~\/)\S*)$/.exec(a);
  return m ? m[1] : null;
}

/** Files `program` writes through its options and output operands. */
export function optionOutputs(program: string, args: readonly string[]): string[] {
  return [...outputOptions(program, args), ...archiveOutputs(program, args), ...positionalOutputs(program, args)].filter(isPathLike);
}

/** Files named inside arguments rather than as arguments: glued to an option, in a socat address, in SQL. */
export function embeddedFiles(program: string, args: readonly string[]): FileUse[] {
  const glued = args.map(attachedPath).filter((p): p is string => p !== null);
  return [...glued.map((raw) => ({ raw, verb: 'read' as const })), ...socatFiles(program, args), ...sqlFiles(program, args)];
}
