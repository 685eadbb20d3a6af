/**
 * What a simple command does to each path it names: reads, lists, writes, copies or moves
 * into, moves away, deletes, truncates, changes permissions or owner of, mounts. The system
 * zones (rules/system-zones.ts) judge each verb by where it lands.
 */
import { embeddedFiles, optionOutputs } from './file-options';
import { patternArgs } from './pattern-args';
import { flagsOf } from './shell-command';
import { ShellCommand } from './shell-parser';

export type PathVerb = 'read' | 'list' | 'write' | 'copy_into' | 'move_into' | 'move_away' | 'delete' | 'truncate' | 'permissions' | 'mount';

export interface PathAction {
  /** The path as written (a `key=` or `@` prefix removed). */
  raw: string;
  verb: PathVerb;
}

/** Verbs that change the file system (the rest only look). */
export const CHANGING_VERBS: ReadonlySet<PathVerb> = new Set(['write', 'copy_into', 'move_into', 'move_away', 'delete', 'truncate', 'permissions', 'mount']);

const DELETERS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'wipe']);
const PERMISSION_CHANGERS = new Set(['chmod', 'chown', 'chgrp', 'chattr', 'setfacl', 'chcon', 'setcap', 'restorecon']);
const CREATORS = new Set(['touch', 'mkdir', 'mknod', 'mkfifo', 'tee']);
/** Editors write the files they open. */
const EDITORS = new Set(['vi', 'vim', 'nvim', 'nano', 'emacs', 'ed', 'ee', 'pico', 'micro', 'sudoedit', 'joe', 'mcedit']);
const COPIERS = new Set(['cp', 'install', 'rsync', 'scp', 'ditto']);
const LISTERS = new Set([
  'ls',
  'dir',
  'tree',
  'du',
  'stat',
  'file',
  'find',
  'locate',
  'lsattr',
  'getfacl',
  'readlink',
  'realpath',
  'test',
  '[',
  '[[',
  'cd',
  'pushd',
  'df',
  'namei',
]);
/** Options whose value is a path the command writes. */
const OUTPUT_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  curl: ['-o', '--output'],
  wget: ['-O', '--output-document', '-P', '--directory-prefix'],
  tar: ['-C', '--directory'],
  unzip: ['-d'],
  sort: ['-o', '--output'],
  gcc: ['-o'],
  cc: ['-o'],
  'g++': ['-o'],
  clang: ['-o'],
  go: ['-o'],
  openssl: ['-out'],
  'grub-mkconfig': ['-o', '--output'],
  'grub2-mkconfig': ['-o', '--output'],
  pandoc: ['-o', '--output'],
  '7z': ['-o'],
  '7za': ['-o'],
  tcpdump: ['-w'],
  iconv: ['-o', '--output'],
  cp: ['-t', '--target-directory'],
  mv: ['-t', '--target-directory'],
  install: ['-t', '--target-directory'],
};
/** Long options that name the file a program writes, whatever the program. */
const GENERIC_OUTPUTS = [
  '--output',
  '--output-file',
  '--outfile',
  '--out-file',
  '--output-dir',
  '--output-directory',
  '--log-file',
  '--logfile',
  '--result-file',
];
/**
 * Paths written by the code a program is given: awk `print > "f"`, sed `w f`, an editor's
 * `:w f`, Perl `open(F, ">f")`, Python `open("f", "w")`, Ruby `File.write("f")`, Node
 * `writeFileSync("f")`, PHP `file_put_contents("f")`.
 */
const CODE_WRITES: ReadonlyArray<RegExp> = [
  /(?:print|printf)[^>"]{0,200}>>?\s*"((?:\/|~\/)[^"]{1,256})"/g,
  /open\s*\(\s*(?:my\s+)?\$?\w+\s*,\s*(?:['"](?:>>?|\+>|\+<)['"]\s*,\s*)?['"](?:>>?|\+>|\+<)?\s*((?:\/|~\/)[^'"]{1,256})['"]/g,
  /(?:open|file)\s*\(\s*['"]((?:\/|~\/)[^'"]{1,256})['"]\s*,\s*['"][^'"]*[wa+][^'"]*['"]/g,
  /(?:File\.(?:write|open|binwrite)|IO\.(?:write|binwrite)|writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|file_put_contents|fopen|Path|io\.output)\s*\(\s*['"]((?:\/|~\/)[^'"]{1,256})['"]/g,
  // Java from JavaScript (jjs, jrunscript), R's sink, Tcl's `open /f w`.
  /(?:File(?:Writer|OutputStream)|PrintWriter|sink)\s*\(\s*['"]((?:\/|~\/)[^'"]{1,256})['"]|\bopen\s+['"]?((?:\/|~\/)[^'"\s]{1,256})['"]?\s+['"]?[wa]\+?\b/g,
  // Perl without parentheses: `open my $f, '>', '/f'`, `open F, ">/f"`.
  /\bopen\s+(?:my\s+)?\$?\w+\s*,\s*['"](?:>>?|\+>|\+<)(?:['"]\s*,\s*['"])?\s*((?:\/|~\/)[^'"]{1,256})['"]/g,
  /(?:^|[;\n}])\s*(?:\d+|\$|\/[^/\n]{0,200}\/)?\s*w\s+((?:\/|~\/)\S{1,256})/g,
  /(?:^|[|\s:])(?:w|write|sav|saveas)!?\s+((?:\/|~\/)\S{1,256})/g,
];
const CODE_PROGRAMS =
  /^(?:g|m|n)?awk$|^g?sed$|^(?:vi|vim|nvim|ex|view|rvim)$|^perl|^python|^ruby|^irb$|^node|^php|^bun|^deno$|^lua|^julia$|^tclsh|^wish$|^jjs$|^jrunscript$|^r$|^rscript$/;

function codeWrites(program: string, args: readonly string[]): string[] {
  if (!CODE_PROGRAMS.test(program)) return [];
  const out: string[] = [];
  for (const a of args.slice(0, 16)) {
    if (a.length < 4) continue;
    const text = a.slice(0, 8192);
    // The sed `w` and editor `:w` forms only in those programs' scripts.
    const res = /sed$/.test(program)
      ? CODE_WRITES.slice(6, 7)
      : /^(?:vi|vim|nvim|ex|view|rvim)$/.test(program)
        ? CODE_WRITES.slice(7)
        : CODE_WRITES.slice(0, 6);
    for (const re of res) for (const m of text.matchAll(re)) if (out.length < 16) out.push(m[1] ?? m[2]);
  }
  return out;
}
const OUTPUT_REDIRECT = /^(?:>|>>|>\||&>|&>>|<>)$/;
/** Disk and volume tools, and whether these arguments change the disks they name (else they only look). */
const DISK_TOOLS: Readonly<Record<string, (args: readonly string[]) => boolean>> = {
  parted: (a) => a.some((x) => /^(?:mklabel|mktable|mkpart|rm|resizepart|name|set|rescue|toggle)$/.test(x)),
  fdisk: (a) => !a.some((x) => /^-(?:l|-list)$/.test(x)),
  sfdisk: (a) => !a.some((x) => /^-(?:l|d|-list|-dump|s|-show-size)$/.test(x)),
  cfdisk: () => true,
  gdisk: (a) => !a.includes('-l'),
  cgdisk: () => true,
  pvcreate: () => true,
  pvremove: () => true,
  vgcreate: () => true,
  vgextend: () => true,
  vgreduce: () => true,
  lvcreate: () => true,
  mdadm: (a) => a.some((x) => /^-(?:C|f|r|a|-create|-fail|-remove|-add|-zero-superblock|-grow)$/.test(x)),
  cryptsetup: (a) => a.some((x) => /^(?:luksFormat|erase|luksErase|reencrypt|luksAddKey|luksRemoveKey|luksKillSlot|convert)$/.test(x)),
  stratis: (a) => a.includes('create') || a.includes('add-data'),
  nwipe: () => true,
  bmaptool: (a) => a[0] === 'copy',
  'rpi-imager': (a) => a.includes('--cli'),
  growpart: () => true,
  resize2fs: () => true,
  e2fsck: (a) => !a.includes('-n'),
  fsck: (a) => !a.includes('-n'),
  ntfsfix: () => true,
  f3fix: () => true,
  badblocks: (a) => a.includes('-w') || a.includes('-n'),
  hdparm: (a) => a.some((x) => /^--(?:security-erase|security-erase-enhanced|trim-sector-ranges|dco-restore|write-sector|make-bad-sector)|^-z$/.test(x)),
  losetup: (a) => !a.some((x) => /^-(?:l|a|-list|-all)$/.test(x)) && a.some((x) => !x.startsWith('-')),
  tune2fs: (a) => a.some((x) => /^-[^l]/.test(x)),
};
/**
 * Options whose value is a file the program only reads, to copy an attribute from it (`touch -r
 * REF`, `chmod --reference=REF`, `truncate -r REF`), and options whose value is no path at all
 * (`touch -d DATE`, `truncate -s SIZE`): neither is a file the program changes.
 */
const REFERENCE_OPTIONS: Readonly<Record<string, { read: readonly string[]; other: readonly string[] }>> = {
  touch: { read: ['-r', '--reference'], other: ['-d', '--date', '-t'] },
  truncate: { read: ['-r', '--reference'], other: ['-s', '--size'] },
  chmod: { read: ['--reference'], other: [] },
  chown: { read: ['--reference'], other: [] },
  chgrp: { read: ['--reference'], other: [] },
};

/** Indexes of `args` that are reference files (read) or other option values (`skip`) of `program`. */
export function referenceArgs(program: string, args: readonly string[]): { read: Set<number>; skip: Set<number> } {
  const spec = REFERENCE_OPTIONS[program];
  const read = new Set<number>();
  const skip = new Set<number>();
  if (!spec) return { read, skip };
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a === '--') break;
    for (const [names, into] of [
      [spec.read, read],
      [spec.other, skip],
    ] as const) {
      // `-r REF` gives the next word; `--reference=REF` and `-rREF` the rest of this one.
      if (names.includes(a) && k + 1 < args.length) into.add(k + 1);
      else if (names.some((n) => (n.startsWith('--') ? a.startsWith(`${n}=`) : a.length > 2 && a.startsWith(n)))) into.add(k);
    }
    if (read.has(k + 1) || skip.has(k + 1)) k++;
  }
  return { read, skip };
}

/** The path in an argument `referenceArgs` marked: `--reference=/bin/sh` names /bin/sh. */
export function referencePath(a: string): string {
  return a.startsWith('--') ? a.slice(a.indexOf('=') + 1) : /^-[a-z]\S/.test(a) ? a.slice(2) : a;
}

/** A program that writes nothing itself, so `PROGRAM > file` only empties the file. */
const EMPTY_OUTPUT = new Set(['', ':', 'true', 'false']);

function valueOf(a: string): string {
  if (a.startsWith('@')) return a.slice(1);
  return /^[a-z-]*=/i.test(a) ? a.slice(a.indexOf('=') + 1).replace(/^@/, '') : a;
}

function optionValues(args: readonly string[], options: readonly string[]): string[] {
  const out: string[] = [];
  args.forEach((a, k) => {
    for (const o of options) {
      if (a === o && args[k + 1] !== undefined) out.push(args[k + 1]);
      else if (o.startsWith('--') && a.startsWith(`${o}=`)) out.push(a.slice(o.length + 1));
      else if (!o.startsWith('--') && a.startsWith(o) && a.length > o.length && o.length === 2 && a[1] === o[1]) out.push(a.slice(2));
    }
  });
  return out;
}

/** Operands of the command with the option values it takes removed, as far as this table knows them. */
function operandsOf(program: string, args: readonly string[]): string[] {
  const skip = new Set(optionValues(args, OUTPUT_OPTIONS[program] ?? []));
  for (const k of patternArgs(program, args)) skip.add(args[k]);
  const refs = referenceArgs(program, args);
  for (const k of [...refs.read, ...refs.skip]) skip.add(args[k]);
  return flagsOf(args).operands.filter((a) => !skip.has(a));
}

function argumentActions(c: ShellCommand): PathAction[] {
  const { program, args } = c.unwrapped;
  const operands = operandsOf(program, args);
  const out: PathAction[] = [];
  const each = (list: readonly string[], verb: PathVerb) => list.forEach((raw) => out.push({ raw: valueOf(raw), verb }));
  for (const k of referenceArgs(program, args).read) out.push({ raw: referencePath(args[k]), verb: 'read' });
  if (DELETERS.has(program)) each(operands, 'delete');
  else if (program === 'find' && args.some((a, k) => a === '-delete' || (/^-exec(?:dir)?$/.test(a) && /(?:^|\/)(?:rm|shred|unlink)$/.test(args[k + 1] ?? ''))))
    each(args.filter((a) => !a.startsWith('-')).slice(0, 1), 'delete');
  else if (program === 'truncate') each(operands, 'truncate');
  else if (DISK_TOOLS[program]) each(operands, DISK_TOOLS[program](args) ? 'write' : 'list');
  else if (PERMISSION_CHANGERS.has(program))
    // The first operand is the mode or owner, unless `--reference` gave it.
    each(
      program === 'chattr' || program === 'setcap' || program === 'restorecon' || referenceArgs(program, args).read.size > 0 ? operands : operands.slice(1),
      'permissions',
    );
  else if (program === 'mount' || program === 'umount') each(operands, 'mount');
  else if (CREATORS.has(program) || EDITORS.has(program)) each(operands, 'write');
  else if (program === 'ln') {
    each(operands.slice(0, -1), 'read');
    each(operands.slice(-1), operands.length > 1 ? 'write' : 'read');
  } else if (program === 'mv') {
    each(operands.slice(0, -1), 'move_away');
    if (operands.length > 1) each(operands.slice(-1), 'move_into');
  } else if (COPIERS.has(program)) {
    each(operands.length > 1 ? operands.slice(0, -1) : operands, 'read');
    if (operands.length > 1) each(operands.slice(-1), 'copy_into');
  } else if (program === 'dd') {
    for (const a of args) if (a.startsWith('of=')) out.push({ raw: a.slice(3), verb: 'write' });
    for (const a of args) if (a.startsWith('if=')) out.push({ raw: a.slice(3), verb: 'read' });
  } else if ((program === 'sed' || program === 'perl') && args.some((a) => /^-[a-z]*i/.test(a) || a.startsWith('--in-place'))) {
    // sed's script is not among the operands (shell/pattern-args.ts); perl's `-pi -e CODE` code is an option value.
    each(program === 'sed' && args.includes('-f') ? operands.slice(1) : operands, 'write');
  } else {
    each(operands, LISTERS.has(program) ? 'list' : 'read');
  }
  const outputs = optionValues(args, [...(OUTPUT_OPTIONS[program] ?? []), ...GENERIC_OUTPUTS]);
  const extracts = program === 'tar' ? args.some((a) => /^-?[a-zA-Z]*x/.test(a) || a === '--extract') : true;
  if (extracts) each(outputs, 'write');
  // Code fed on stdin (`echo 'open("/f","w")…' | python3`) writes like code given as an argument.
  each(codeWrites(program, c.stdin === undefined ? args : [...args, c.stdin]), 'write');
  each(optionOutputs(program, args), 'write');
  for (const f of embeddedFiles(program, args)) out.push(f);
  // One action per path and verb: an output named by two tables is one write.
  return out.filter((a, k) => out.findIndex((b) => b.raw === a.raw && b.verb === a.verb) === k);
}

/** Every path the command names, with what it does to it (arguments, `key=/path`, `@file`, redirects). */
export function pathActions(c: ShellCommand): PathAction[] {
  const out = argumentActions(c);
  const empties = EMPTY_OUTPUT.has(c.unwrapped.program) || (c.unwrapped.program === 'cat' && c.unwrapped.args.join(' ') === '/dev/null');
  for (const r of c.redirects) {
    if (/^\d+$|^-$/.test(r.target) || r.target === '') continue;
    if (OUTPUT_REDIRECT.test(r.op)) out.push({ raw: r.target, verb: empties && (r.op === '>' || r.op === '>|') ? 'truncate' : 'write' });
    else if (r.op === '<') out.push({ raw: r.target, verb: 'read' });
  }
  return out;
}
