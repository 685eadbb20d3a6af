/**
 * Commands that run another command given in their own argv (`sudo rm`, `taskset -c 0 rm`,
 * `runuser -u x -- rm`), with the options each of them takes, so the wrapped command is
 * found exactly where the wrapper would find it. A wrapper's option whose value is itself
 * a shell script (`flock -c`, `runuser -c`) is handed back for nested analysis.
 */
interface WrapperSpec {
  /** Options that consume the next argument (exact words, so `-Logfile` works too). */
  argOptions?: readonly string[];
  /** Options whose value is a shell script the wrapper runs with `sh -c`. */
  scriptOptions?: readonly string[];
  /** Positional arguments to skip before the wrapped command (timeout DURATION, chroot DIR). */
  positional?: number;
  /** Options after which there is no positional to skip (`runuser -u USER cmd` vs `runuser USER -c cmd`). */
  positionalUnless?: readonly string[];
  elevated?: boolean;
  /** Accepts NAME=value words before the command (env). */
  assignments?: boolean;
}

/**
 * Not elevated: runuser, setpriv, nsenter and unshare only change identity or namespaces
 * when already root (`unshare -r` is a fake root); systemd-run asks polkit like any client.
 */
export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  sudo: {
    elevated: true,
    // `sudo EDITOR='tee -a' visudo`: sudo sets variables given before the command.
    assignments: true,
    argOptions: [
      '-u',
      '-g',
      '-p',
      '-C',
      '-h',
      '-U',
      '-r',
      '-t',
      '-D',
      '-R',
      '-T',
      '--user',
      '--group',
      '--prompt',
      '--close-from',
      '--host',
      '--other-user',
      '--role',
      '--type',
      '--chdir',
      '--chroot',
      '--command-timeout',
    ],
  },
  doas: { elevated: true, argOptions: ['-u', '-C'] },
  pkexec: { elevated: true, argOptions: ['--user'] },
  env: { assignments: true, argOptions: ['-u', '--unset', '-C', '--chdir'] },
  command: {},
  builtin: {},
  exec: { argOptions: ['-a'] },
  nohup: {},
  setsid: {},
  time: { argOptions: ['-f', '-o', '--format', '--output'] },
  nice: { argOptions: ['-n', '--adjustment'] },
  // -t (ignore failures) is a flag; -p/-P/-u take ids instead of a command.
  ionice: { argOptions: ['-c', '-n', '--class', '--classdata'] },
  timeout: { positional: 1, argOptions: ['-s', '-k', '--signal', '--kill-after'] },
  stdbuf: { argOptions: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  chroot: { positional: 1, argOptions: ['--userspec', '--groups'] },
  flock: { positional: 1, argOptions: ['-w', '-E', '--timeout', '--conflict-exit-code'], scriptOptions: ['-c', '--command'] },
  // -c/--cpu-list is a flag: the mask or list is the positional.
  taskset: { positional: 1 },
  chrt: { positional: 1, argOptions: ['-T', '-P', '-D', '--sched-runtime', '--sched-period', '--sched-deadline'] },
  runuser: {
    positional: 1,
    positionalUnless: ['-u', '--user'],
    argOptions: ['-u', '--user', '-g', '--group', '-G', '--supp-group', '-s', '--shell', '-w', '--whitelist-environment'],
    scriptOptions: ['-c', '--command', '--session-command'],
  },
  setpriv: {
    argOptions: [
      '--reuid',
      '--regid',
      '--ruid',
      '--euid',
      '--rgid',
      '--egid',
      '--groups',
      '--inh-caps',
      '--ambient-caps',
      '--bounding-set',
      '--securebits',
      '--pdeathsig',
      '--selinux-label',
      '--apparmor-profile',
      '--landlock-access',
      '--landlock-rule',
      '--seccomp-filter',
    ],
  },
  'systemd-run': {
    argOptions: [
      '-u',
      '--unit',
      '-p',
      '--property',
      '--description',
      '--slice',
      '-E',
      '--setenv',
      '-H',
      '--host',
      '-M',
      '--machine',
      '--uid',
      '--gid',
      '--nice',
      '--working-directory',
      '--on-active',
      '--on-boot',
      '--on-startup',
      '--on-unit-active',
      '--on-unit-inactive',
      '--on-calendar',
      '--timer-property',
      '--path-property',
      '--socket-property',
      '--service-type',
    ],
  },
  unshare: {
    argOptions: [
      '-S',
      '--setuid',
      '-G',
      '--setgid',
      '--propagation',
      '--setgroups',
      '-R',
      '--root',
      '-w',
      '--wd',
      '--monotonic',
      '--boottime',
      '-l',
      '--load-interp',
      '--map-user',
      '--map-group',
      '--map-users',
      '--map-groups',
    ],
  },
  nsenter: { argOptions: ['-t', '--target', '-S', '--setuid', '-G', '--setgid'] },
  screen: { argOptions: ['-S', '-c', '-e', '-h', '-p', '-T', '-t', '-s', '-Logfile'] },
  unbuffer: {},
  busybox: {},
  caffeinate: { argOptions: ['-w', '-t'] },
  strace: { argOptions: ['-o', '-e', '-p', '-s', '-u', '-E', '-a', '-P', '-I'] },
  ltrace: { argOptions: ['-o', '-e', '-p', '-s', '-u', '-a'] },
  // -d/--differences takes its value only as `--differences=permanent`.
  watch: { argOptions: ['-n', '--interval', '-q', '--equexit'] },
  xargs: { argOptions: ['-I', '-n', '-L', '-P', '-d', '-E', '-s', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file', '--replace'] },
  torsocks: {},
  proxychains: { argOptions: ['-f'] },
  proxychains4: { argOptions: ['-f'] },
  firejail: {},
  // Run a program with other settings and nothing else: architecture, fake root, no fsync, a fixed clock, limits, a log.
  setarch: { positional: 1 },
  linux32: {},
  linux64: {},
  rlwrap: { argOptions: ['-a', '-b', '-C', '-D', '-e', '-f', '-F', '-g', '-H', '-l', '-M', '-O', '-p', '-P', '-q', '-s', '-S', '-t', '-w', '-z'] },
  fakeroot: { argOptions: ['-l', '--lib', '--faked', '-s', '-i', '-b'] },
  eatmydata: {},
  faketime: { positional: 1, argOptions: ['-p', '-m', '-f'] },
  logsave: { positional: 1 },
  prlimit: { argOptions: ['-p', '--pid'] },
  valgrind: {},
  catchsegv: {},
  cpulimit: { argOptions: ['-l', '--limit', '-p', '--pid', '-e', '--exe'] },
  'aa-exec': { argOptions: ['-p', '--profile', '-n', '--namespace'] },
  'dbus-run-session': { argOptions: ['--config-file', '--dbus-daemon'] },
  'ld.so': { argOptions: ['--library-path', '--inhibit-rpath', '--audit', '--preload', '--argv0'] },
};

export interface SkippedWrapper {
  /** Index of the wrapped command in argv (argv.length when there is none). */
  index: number;
  /** Scripts given to the wrapper's script options (`flock -c 'cmd'`). */
  scripts: string[];
}

/** Skips a wrapper's own options, starting after its name. */
export function skipWrapper(argv: readonly string[], start: number, spec: WrapperSpec): SkippedWrapper {
  const argOptions = new Set(spec.argOptions ?? []);
  const scriptOptions = new Set(spec.scriptOptions ?? []);
  const scripts: string[] = [];
  let i = start;
  let positional = spec.positional ?? 0;
  while (i < argv.length) {
    const a = argv[i];
    const name = a.startsWith('--') && a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (spec.positionalUnless?.includes(name)) positional = 0;
    if (a === '--') return { index: i + 1 + positional, scripts };
    if (a === '-' || (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a))) {
      i++;
    } else if (scriptOptions.has(name)) {
      scripts.push(name === a ? (argv[i + 1] ?? '') : a.slice(name.length + 1));
      i += name === a ? 2 : 1;
    } else if (a.startsWith('--') || argOptions.has(a)) {
      i += argOptions.has(a) ? 2 : 1;
    } else if (a.startsWith('-') && a.length > 1 && !/^-\d+$/.test(a)) {
      i += skipCluster(argv, i, argOptions, scriptOptions, scripts);
    } else if (a.startsWith('-') && a.length > 1) {
      i++;
    } else if (positional > 0) {
      positional--;
      i++;
    } else {
      return { index: i, scripts };
    }
  }
  return { index: i, scripts };
}

/** `-dmS name`, `-qc script`, `-oL`: the first letter taking a value ends the cluster. */
function skipCluster(argv: readonly string[], i: number, argOptions: ReadonlySet<string>, scriptOptions: ReadonlySet<string>, scripts: string[]): number {
  const a = argv[i];
  for (let k = 1; k < a.length; k++) {
    const opt = '-' + a[k];
    const rest = a.slice(k + 1);
    if (scriptOptions.has(opt)) {
      scripts.push(rest !== '' ? rest : (argv[i + 1] ?? ''));
      return rest !== '' ? 1 : 2;
    }
    if (argOptions.has(opt)) return rest !== '' ? 1 : 2;
  }
  return 1;
}
