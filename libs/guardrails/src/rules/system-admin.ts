/**
 * Changes an operator makes to a machine, which an agent should not make unasked: user
 * accounts, kernel modules and parameters, security and audit tooling, firewall rules,
 * jobs scheduled to run later, libraries injected into programs; and hunting the disk for
 * credentials. Each hit names what the command does; GUARDRAILS.md has the table.
 */
import { normalizePath } from '../paths/path-normalizer';
import { flagsOf, nestedScripts, SHELL_PROGRAMS } from '../shell/shell-command';
import { UNKNOWN_EXPANSION } from '../shell/shell-lexer';
import { ShellCommand } from '../shell/shell-parser';
import { CommandRisk, Severity } from './command-risk';

type Hit = [rule: string, severity: Severity, description: string, category?: CommandRisk['category']];

const ACCOUNT_PROGRAMS =
  /^(?:useradd|userdel|usermod|adduser|deluser|addgroup|delgroup|groupadd|groupdel|groupmod|gpasswd|chpasswd|newusers|vipw|vigr|visudo|chsh|dsenableroot)$/;
const CREDENTIAL_TOOLS =
  /(?:^|[/\\])(?:lazagne|mimipenguin|mimikatz|pypykatz|secretsdump|hashdump|keychaindump|chainbreaker|dumpkeychain)(?:\.(?:py|sh|exe|pl|rb))?$/i;
/** Names of files that hold credentials, as `find -name` would look for them. */
const CREDENTIAL_NAMES =
  /^(?:\*?\.?)?(?:id_(?:rsa|dsa|ecdsa|ed25519)|\.?netrc|\.?git-credentials|credentials(?:\.db|\.json)?|accesstokens\.json|msal_token_cache\.json|access_tokens\.db|\.?pgpass|\.?my\.cnf|shadow|wallet\.dat|\*\.kdbx|\.?gnupg|\.?aws|\.?ssh|authorized_keys|\.?vault-token|token|login data|logins\.json|key[34]\.db|cookies(?:\.sqlite|\.binarycookies)?|\*\.(?:pem|key|p12|pfx|ppk|jks|keystore|kdbx)|\.(?:bash|zsh|sh|psql|mysql)_history)['"]?$/i;
/** `.env`, `.env.local`, `.env.*`: dotenv secrets files (not `.env.example` and its kin). */
const DOTENV_NAME = /^\.env(?:\.(?!example|sample|template|dist|defaults)[\w*-]+)?$/i;
const SECRET_WORDS = /^['"]?-?(?:e\s)?(?:password|passwd|pass|secret|token|api[_-]?key|private key|begin [a-z ]*private key)/i;
/** Roots a search through is a search through the machine or a user's files. */
const WIDE_ROOT = /^(?:\/|\/\/|~|\$home|\/home|\/root|\/users|\/etc|\/var|\/opt)\/?$/i;
const LAUNCH_DIR = /\/library\/launch(?:agents|daemons)\/|\/library\/preferences\/(?:byhost\/)?com\.apple\.loginwindow/i;
const SECURITY_TOGGLES: ReadonlyArray<[program: string, test: (args: string[]) => boolean, what: string]> = [
  ['auditctl', (a) => a.includes('-D') || (a.includes('-e') && a[a.indexOf('-e') + 1] === '0'), 'removes audit rules or turns auditing off'],
  ['log', (a) => a[0] === 'erase', 'erases the unified log'],
  ['spctl', (a) => a.some((x) => /^--(?:master-disable|global-disable|disable)$/.test(x)), 'turns Gatekeeper off'],
  ['csrutil', (a) => a[0] === 'disable', 'turns System Integrity Protection off'],
  ['mdatp', (a) => a.includes('config') && a.some((x) => /^disabled?$/i.test(x)), 'turns Defender for Endpoint protection off'],
  ['tmutil', (a) => a[0] === 'disable' || a[0] === 'deletelocalsnapshots' || a[0] === 'delete', 'turns off or deletes Time Machine backups'],
  ['xattr', (a) => a.includes('-d') && a.includes('com.apple.quarantine'), 'removes the quarantine mark that makes Gatekeeper check a download'],
  ['security', (a) => a[0] === 'add-trusted-cert', 'adds a trusted root certificate'],
  ['ufw', (a) => a[0] === 'logging' && a[1] === 'off', 'turns firewall logging off'],
  ['aa-teardown', () => true, 'unloads every AppArmor profile'],
  ['systemsetup', (a) => a.some((x) => /^-setremotelogin$/i.test(x)), 'changes remote login'],
  [
    'networksetup',
    (a) => a.some((x) => /^-set(?:secure)?webproxy|^-setsocksfirewallproxy|^-setautoproxyurl/i.test(x)),
    "routes the machine's web traffic through a proxy",
  ],
  ['kickstart', (a) => a.includes('-activate'), 'turns on remote management (Apple Remote Desktop)'],
];
/** Programs that run commands of their own (code, `-exec`, `!cmd` escapes). */
const COMMAND_RUNNERS =
  /^(?:awk|gawk|mawk|nawk|busybox|find|xargs|vi|vim|nvim|view|rvim|ex|emacs|nano|ed|less|more|man|perl|python[\d.]*|ruby|php|node|lua|tclsh|wish|expect|gdb|tar|zip|git|rsync|ftp|sqlite3|mysql|psql|cpan|pip|npm|make|env)$/;
/** A shell started with no script: an interactive shell, out of whatever program started it. */
const BARE_SHELL = /(?:^|[\s"'(=!:`,\[])\/(?:usr\/)?bin\/(?:ba|z|da|k|c|tc)?sh(?=["')\]\s&;,]|$)(?![^"']{0,3}-c\b)/;
const NESTED_SHELL = /^(?:\/(?:usr\/)?bin\/)?(?:ba|z|da|k|c|tc)?sh(?:\s|$)/;
// Screen grabbers (x11grab, kmsgrab, gdigrab) are left out: a screenshot is ordinary work, a microphone or a camera is not.
const CAPTURE_FORMATS = /^(?:alsa|pulse|avfoundation|v4l2|video4linux2|dshow|openal|jack|oss|sndio)$/;
/** Services that expose a port of this machine on the internet. */
const TUNNELS: ReadonlyArray<[program: string, test: (args: string[]) => boolean]> = [
  ['cloudflared', (a) => a.includes('tunnel')],
  ['ngrok', (a) => /^(?:http|tcp|tls|start|tunnel)$/.test(a[0] ?? '')],
  ['devtunnel', (a) => a[0] === 'host'],
  ['code', (a) => a[0] === 'tunnel'],
  ['lt', (a) => a.some((x) => x === '--port' || x === '-p')],
  ['localtunnel', () => true],
  ['chisel', (a) => a[0] === 'client' || a[0] === 'server'],
  ['frpc', () => true],
  ['bore', (a) => a[0] === 'local'],
  ['ssh', (a) => a.some((x) => /^-[a-zA-Z]*R/.test(x))],
];

/** Options of chsh and chfn that take a value (`-s SHELL`, `-f NAME`...); `-R DIR` edits another system's accounts. */
const OWN_ENTRY_OPTIONS = /^-[sfrwhoR]$|^--(?:shell|full-name|room|work-phone|home-phone|other|root)$/;
/** A shell by name (`/bin/zsh`, `/opt/homebrew/bin/fish`), or one found at run time (`$(which zsh)`). */
const LOGIN_SHELL = new RegExp(`^(?:.*/)?(?:${[...SHELL_PROGRAMS].join('|')}|nu|xonsh|elvish|pwsh)$|^${UNKNOWN_EXPANSION}$`);
/** The user running the command, as a script names them. */
const SELF = /^\$\{?(?:USER|LOGNAME)\}?$/;

/**
 * `chsh -s /bin/zsh`, `chfn -f Name`: a user changing their own login shell or finger entry,
 * which needs no privilege. Another user's entry, root's (under sudo) or another root's is an
 * account change.
 */
function ownEntry(program: string, args: string[], elevated: boolean): boolean {
  if ((program !== 'chsh' && program !== 'chfn') || elevated) return false;
  const operands: string[] = [];
  for (let k = 0; k < args.length; k++) {
    if (OWN_ENTRY_OPTIONS.test(args[k])) {
      if (/^-R$|^--root$/.test(args[k])) return false;
      // A login shell that is not a shell (`chsh -s /tmp/x`) runs at every login: persistence, not a preference.
      if (/^-s$|^--shell$/.test(args[k]) && !LOGIN_SHELL.test(args[k + 1] ?? '')) return false;
      k++;
    } else if (/^--root=|^--shell=/.test(args[k])) return false;
    else if (!args[k].startsWith('-')) operands.push(args[k]);
  }
  return operands.every((o) => SELF.test(o));
}

function accounts(program: string, args: string[], elevated: boolean): Hit | null {
  if (ownEntry(program, args, elevated)) return null;
  if (ACCOUNT_PROGRAMS.test(program) || program === 'chfn')
    return ['accounts', 'high', `${program} changes user accounts, groups or sudo rights`, 'system_change'];
  if (program === 'passwd' && flagsOf(args).operands.length > 0)
    return ['accounts', 'high', `passwd changes the password of ${flagsOf(args).operands[0]}`, 'system_change'];
  if (program === 'pw' && /^(?:user|group)?(?:add|del|mod)$|^user$|^group$|^lock$|^unlock$/.test(args[0] ?? ''))
    return ['accounts', 'high', 'pw changes user accounts', 'system_change'];
  if (program === 'dscl' && args.some((a) => /^-(?:create|append|delete|passwd|change|merge)$/.test(a)))
    return ['accounts', 'high', 'dscl changes the directory (users, groups, passwords)', 'system_change'];
  if (program === 'sysadminctl' && args.some((a) => /^-(?:adduser|deleteuser|resetpasswordfor|guestaccount|secureTokenOn|adminuser)$/i.test(a)))
    return ['accounts', 'high', 'sysadminctl changes user accounts', 'system_change'];
  if (program === 'dseditgroup' && args.some((a) => a === 'edit' || a === 'create' || a === 'delete'))
    return ['accounts', 'high', 'dseditgroup changes group membership', 'system_change'];
  return null;
}

function kernel(program: string, args: string[]): Hit | null {
  const ops = flagsOf(args).operands;
  if (program === 'insmod' || program === 'kextload' || (program === 'kmutil' && args[0] === 'load'))
    return ['kernel', 'high', `${program} loads a kernel module`, 'system_change'];
  if (program === 'modprobe' && ops.length > 0 && !args.some((a) => /^-(?:[a-z]*[nlc]|-dry-run|-show|-list)$/.test(a)))
    return ['kernel', 'high', `modprobe ${args.includes('-r') ? 'unloads' : 'loads'} kernel module ${ops[0]}`, 'system_change'];
  if (program === 'rmmod' || program === 'kextunload') return ['kernel', 'high', `${program} unloads a kernel module`, 'system_change'];
  if (program === 'kexec' && args.some((a) => /^-(?:l|e|p|-load|-exec|-load-panic)$/.test(a)))
    return ['kernel', 'high', 'kexec loads or boots another kernel', 'system_change'];
  if (program === 'sysctl' && (args.includes('-w') || ops.some((o) => /^[\w.]+=/.test(o))))
    return ['kernel', 'high', 'sysctl changes a kernel parameter', 'system_change'];
  if (program === 'swapoff') return ['kernel', 'medium', 'swapoff turns swap off', 'system_change'];
  return null;
}

function firewall(program: string, args: string[]): Hit | null {
  const sub = args[0] ?? '';
  if (/^ip6?tables(?:-legacy|-nft)?$/.test(program) && args.some((a) => /^-[ADIRPXNZ]$|^--(?:append|delete|insert|replace|policy|delete-chain)$/.test(a)))
    return ['firewall', 'medium', `${program} changes the firewall rules`];
  if (program === 'nft' && /^(?:add|delete|flush|insert|replace|create|destroy)$/.test(sub)) return ['firewall', 'medium', 'nft changes the firewall rules'];
  if (program === 'ufw' && /^(?:reset|allow|deny|reject|limit|delete|insert|prepend|route|default)$/.test(sub))
    return ['firewall', 'medium', `ufw ${sub} changes the firewall rules`];
  if (program === 'pfctl' && args.some((a) => /^-(?:d|F\w*|f)$/.test(a))) return ['firewall', 'medium', 'pfctl changes or turns off the packet filter'];
  if (program === 'firewall-cmd' && args.some((a) => /^--(?:add|remove|set|panic|reload|complete-reload)/.test(a)))
    return ['firewall', 'medium', 'firewall-cmd changes the firewall rules'];
  return null;
}

function security(program: string, args: string[]): Hit | null {
  for (const [name, test, what] of SECURITY_TOGGLES) if (program === name && test(args)) return ['security_tooling', 'high', what];
  if (program === 'launchctl' && /^(?:unload|remove|bootout|disable)$/.test(args[0] ?? '') && args.some((a) => /^\/library\/launchdaemons\//i.test(a)))
    return ['security_tooling', 'high', 'unloads a system daemon (LaunchDaemons)', 'process_control'];
  return null;
}

/** Jobs that run later or at every login: at, crontab FILE, timers, launchd, login hooks. */
function scheduling(c: ShellCommand): Hit | null {
  const { program, args } = c.unwrapped;
  const ops = flagsOf(args).operands;
  if ((program === 'at' || program === 'batch') && !args.some((a) => /^-[lrdc]$/.test(a)))
    return ['persistence', 'medium', `${program} schedules a command to run later`];
  if (program === 'crontab' && ops.length > 0 && ops[0] !== '-' && !args.includes('-l') && !args.includes('-r'))
    return ['persistence', 'medium', `installs ${ops[0]} as the crontab (persistence)`];
  // systemd-run is peeled off as a wrapper: its options are in argv.
  if (
    c.unwrapped.wrappers.includes('systemd-run') &&
    c.argv.some((a) => /^--on-(?:calendar|active|boot|startup|unit-active|unit-inactive|timezone-change|clock-change)/.test(a))
  )
    return ['persistence', 'medium', 'systemd-run schedules a command with a timer (persistence)'];
  if (program === 'launchctl' && /^(?:load|submit|bootstrap|enable)$/.test(args[0] ?? ''))
    return ['persistence', 'medium', `launchctl ${args[0]} starts a job at every login or boot (persistence)`];
  if (program === 'defaults' && args[0] === 'write' && args.some((a) => /^(?:LoginHook|LogoutHook)$/.test(a)))
    return ['persistence', 'high', 'sets a login hook (persistence)'];
  if (program === 'update-rc.d' && args.includes('defaults')) return ['persistence', 'medium', 'update-rc.d starts a service at boot (persistence)'];
  const written = [
    ...c.redirects.filter((r) => /^(?:>|>>|>\|)$/.test(r.op)).map((r) => r.target),
    ...(['cp', 'mv', 'install', 'ln', 'tee'].includes(program) ? ops.slice(-1) : []),
  ];
  const launch = written.find((t) => LAUNCH_DIR.test(normalizePath(t, c.cwd).key));
  if (launch) return ['persistence', 'high', `writes ${launch}, which launchd runs at every login or boot (persistence)`];
  return null;
}

/** A library forced into a program (`LD_PRELOAD=/tmp/x.so ls`). */
function injection(c: ShellCommand): Hit | null {
  const forced = c.assignments.find(([k, v]) => /^(?:LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES)$/.test(k) && v !== '');
  if (forced) return ['library_injection', 'high', `${forced[0]}=${forced[1]} loads a library into what it runs`];
  if (['export', 'env'].includes(c.unwrapped.program)) {
    const a = c.unwrapped.args.find((x) => /^(?:LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES)=./.test(x));
    if (a) return ['library_injection', 'high', `${a} loads a library into every program started after it`];
  }
  if (
    c.unwrapped.program === 'setcap' &&
    c.unwrapped.args.some((a) => /cap_(?:setuid|setgid|sys_admin|sys_ptrace|dac_override|dac_read_search|sys_module)/i.test(a))
  )
    return ['setuid', 'high', 'setcap gives a program a root capability'];
  return null;
}

/** Searching the machine for credential files or for secrets, and credential dumping tools. */
function credentialHunt(c: ShellCommand): Hit | null {
  const { program, programPath, args } = c.unwrapped;
  if (CREDENTIAL_TOOLS.test(programPath) || args.slice(0, 2).some((a) => CREDENTIAL_TOOLS.test(a)))
    return ['credential_read', 'high', 'runs a credential dumping tool'];
  if (program === 'find' || program === 'locate' || program === 'mdfind' || program === 'fd') {
    const names = args.filter((a, k) => program !== 'find' || /^-i?(?:name|path|wholename)$/.test(args[k - 1] ?? ''));
    // `-name '.env*'`, `-path '*/.ssh/*'`, `-iname '*id_rsa*'`: the name a wildcard surrounds.
    const bare = (n: string) => n.replace(UNKNOWN_EXPANSION, '').replace(/^['"]|['"]$/g, '');
    const core = (n: string) =>
      bare(n)
        .replace(/^(?:\*\/?)+|(?:\/?\*)+$/g, '')
        .replace(/^.*\//, '');
    const hit = names.find((n) => CREDENTIAL_NAMES.test(bare(n)) || CREDENTIAL_NAMES.test(core(n)) || DOTENV_NAME.test(core(n)));
    if (hit && (program !== 'find' || args.some((a) => WIDE_ROOT.test(a) || /^\/\/?\.|^(?:~|\$home)\//i.test(a))))
      return ['credential_read', 'high', `searches the machine for credential files (${hit})`];
  }
  if ((program === 'grep' || program === 'egrep' || program === 'rg' || program === 'ag') && args.some((a) => /^-[a-z]*[rR]/.test(a) || program !== 'grep')) {
    const f = flagsOf(args);
    // A pattern given with `-e` (`-ie PASSWORD`, `--regexp=x`) leaves every operand a path.
    const k = args.findIndex((a) => /^-[a-zA-Z]*e$|^--regexp$/.test(a));
    const given = k >= 0 ? args[k + 1] : args.find((a) => a.startsWith('--regexp='))?.slice('--regexp='.length);
    const patterns = given === undefined ? f.operands.slice(0, 1) : [given];
    const paths = given === undefined ? f.operands.slice(1) : f.operands.filter((o) => o !== given);
    if (patterns.some((p) => SECRET_WORDS.test(p)) && paths.some((o) => WIDE_ROOT.test(o)))
      return ['credential_read', 'high', 'searches the machine for passwords or keys'];
  }
  return null;
}

/** `awk 'BEGIN {system("/bin/sh")}'`, `vim -c ':!/bin/sh'`, `find . -exec /bin/sh \\;`: a shell escape. */
function shellEscape(c: ShellCommand): Hit | null {
  const { program, args } = c.unwrapped;
  // find runs commands only through -exec/-ok, judged where they run; its other shell paths are data (`-newer /bin/sh`, a grep pattern).
  if (!COMMAND_RUNNERS.test(program) || program === 'find') return null;
  // A shell the program is handed as a command is judged where it runs (rules/shell-escape.ts), once.
  if (nestedScripts(c.unwrapped, null).some((n) => NESTED_SHELL.test((n.script ?? n.argv?.join(' ') ?? '').trim()))) return null;
  const arg = args.find((a) => BARE_SHELL.test(a) || /\bpty\.spawn\s?\(/.test(a));
  return arg ? ['shell_escape', 'high', `${program} starts an interactive shell (a shell escape)`] : null;
}

/** Recording the microphone or the camera: `sox -d`, `rec`, `arecord`, `ffmpeg -f avfoundation|alsa|v4l2 -i`, `imagesnap`. */
function deviceCapture(c: ShellCommand): Hit | null {
  const { program, args } = c.unwrapped;
  const listing = args.some((a) => /^-(?:l|L|-list-devices|-list-pcms|list_devices)$/.test(a));
  if ((program === 'rec' || program === 'arecord' || program === 'parecord' || program === 'pw-record') && !listing)
    return ['device_capture', 'high', `${program} records from the microphone`];
  if (
    program === 'sox' &&
    flagsOf(args).operands.length > 0 &&
    args.some((a) => a === '-d' || a === '--default-device') &&
    args.indexOf('-d') < args.length - 1
  )
    return ['device_capture', 'high', 'sox records from the default audio device'];
  const format = program === 'ffmpeg' || program === 'avconv' ? args.findIndex((a, k) => a === '-f' && CAPTURE_FORMATS.test(args[k + 1] ?? '')) : -1;
  if (format >= 0 && args.slice(format).includes('-i')) return ['device_capture', 'high', `${program} records from a capture device (${args[format + 1]})`];
  if ((program === 'imagesnap' || program === 'fswebcam') && !listing) return ['device_capture', 'high', `${program} takes a picture with the camera`];
  return null;
}

function tunnel(c: ShellCommand): Hit | null {
  const { program, args } = c.unwrapped;
  const t = TUNNELS.find(([name, test]) => program === name && test(args));
  return t ? ['tunnel', 'medium', `${program} exposes a port of this machine on the internet (tunnel)`] : null;
}

/** `trap '... $BASH_COMMAND ...' DEBUG` records every command the shell runs. */
function commandLogging(c: ShellCommand): Hit | null {
  const { program, args } = c.unwrapped;
  return program === 'trap' && args.length > 1 && args.slice(1).includes('DEBUG')
    ? ['command_logging', 'medium', 'records every command the shell runs (trap DEBUG)']
    : null;
}

function masquerade(c: ShellCommand): Hit | null {
  const { program, args } = c.unwrapped;
  const ops = flagsOf(args).operands;
  if (program === 'cp' && ops.length === 2 && /^\/(?:usr\/)?bin\/(?:ba|z|da|k)?sh$/.test(ops[0]) && !/\/(?:ba|z|da|k)?sh$/.test(ops[1]))
    return ['masquerade', 'medium', `copies a shell to ${ops[1]} under another name`];
  return null;
}

export function systemAdminRisks(c: ShellCommand): CommandRisk[] {
  const { program, args } = c.unwrapped;
  const hits = [
    accounts(program, args, c.unwrapped.elevated),
    kernel(program, args),
    firewall(program, args),
    security(program, args),
    scheduling(c),
    injection(c),
    credentialHunt(c),
    masquerade(c),
    shellEscape(c),
    deviceCapture(c),
    tunnel(c),
    commandLogging(c),
  ];
  return hits
    .filter((h): h is Hit => h !== null)
    .map(([rule, severity, description, category]) => ({ rule, severity, description, command: c, category: category ?? 'dangerous_command' }));
}
