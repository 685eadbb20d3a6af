/**
 * The built-in map of system zones (where the operating system keeps its programs,
 * configuration, kernel interfaces, devices, state and logs) and what each verb does
 * there. Reading or listing a zone is ordinary (`uname`, `cat /proc/cpuinfo`, `ls /bin`);
 * changing it is not. A project policy widens the map (`systemZones.add`) or narrows it
 * (`systemZones.exempt`); GUARDRAILS.md, "System zones", has the table.
 */
import { hasPathGlob } from '../paths/path-glob';
import { compilePathPrefix, matchesPathPrefix, NormalizedPath, PathPrefix } from '../paths/path-normalizer';
import { PathVerb } from '../shell/path-actions';
import { Severity } from './command-risk';

export interface SystemZone {
  id: string;
  /** What the zone holds, for reasons: "system programs and libraries". */
  label: string;
  prefixes: readonly string[];
  /** A path matched by these is in the zone whatever the prefixes say (device nodes, /proc/<pid>/mem). */
  patterns?: readonly RegExp[];
  /** Severity of each verb there; a verb left out is ordinary in this zone. */
  verbs: Partial<Record<PathVerb, Severity>>;
}

const CHANGE_HIGH: SystemZone['verbs'] = {
  write: 'high',
  copy_into: 'high',
  move_into: 'high',
  move_away: 'high',
  delete: 'high',
  truncate: 'high',
  permissions: 'high',
  mount: 'high',
};
const CHANGE_CRITICAL: SystemZone['verbs'] = {
  write: 'critical',
  copy_into: 'critical',
  move_into: 'critical',
  move_away: 'critical',
  delete: 'critical',
  truncate: 'critical',
  permissions: 'critical',
  mount: 'critical',
};

/** Device nodes that are not the machine's own hardware or memory: ordinary to read and write. */
const ORDINARY_DEVICE =
  /^\/dev\/(?:null|zero|u?random|full|stdin|stdout|stderr|tty|console|ptmx|fd(?:\/.*)?|pts(?:\/\d+)?|shm(?:\/.*)?|mqueue(?:\/.*)?|(?:tcp|udp)\/.*)$/;
/** Raw disks and memory: reading them reads everything on the machine. */
const RAW_STORAGE =
  /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|mapper\/|md\d|dm-\d|loop\d|root$|mem$|kmem$|port$)|^\/proc\/kcore$|^\/proc\/(?:self|\d{1,10})\/mem$/;
/** Keyboards, mice, cameras and microphones: reading them spies on the user. */
const INPUT_DEVICE = /^\/dev\/(?:input\/|video\d|snd\/|uinput$|hidraw\d)/;

/** Most specific first: the first zone with a matching pattern, else the longest matching prefix, wins. */
export const SYSTEM_ZONES: readonly SystemZone[] = [
  {
    id: 'kernel_trigger',
    label: 'kernel triggers that crash, reboot or patch the running system',
    prefixes: ['/proc/sysrq-trigger', '/sys/firmware/efi/efivars', '/sys/kernel/debug'],
    patterns: [/^\/proc\/(?:self|\d{1,10})\/mem$/],
    verbs: CHANGE_CRITICAL,
  },
  {
    id: 'raw_storage',
    label: 'raw disks and memory',
    prefixes: [],
    patterns: [RAW_STORAGE],
    // dd, redirects and mkfs onto disks are `disk_wipe` (critical) already; partitioning, volume and repair
    // tools write them too (high). Reading them reads every file and secret.
    verbs: { read: 'high', write: 'high', delete: 'high', permissions: 'high', mount: 'high' },
  },
  { id: 'input_devices', label: 'keyboards, cameras and microphones', prefixes: [], patterns: [INPUT_DEVICE], verbs: { read: 'high', ...CHANGE_HIGH } },
  {
    id: 'accounts',
    label: 'accounts, passwords and sudo rules',
    prefixes: [
      '/etc/passwd',
      '/etc/shadow',
      '/etc/group',
      '/etc/gshadow',
      '/etc/master.passwd',
      '/etc/sudoers',
      '/etc/sudoers.d',
      '/etc/pam.d',
      '/etc/security',
      '/etc/ssh/sshd_config',
      '/etc/ssh/sshd_config.d',
    ],
    verbs: CHANGE_CRITICAL,
  },
  {
    id: 'boot',
    label: 'the boot loader and kernels',
    prefixes: ['/boot', '/efi'],
    verbs: { ...CHANGE_HIGH, delete: 'critical', truncate: 'critical', move_away: 'critical' },
  },
  { id: 'configuration', label: 'system configuration', prefixes: ['/etc', '/library', '/system/library'], verbs: CHANGE_HIGH },
  {
    id: 'programs',
    label: 'system programs and libraries',
    prefixes: ['/bin', '/sbin', '/usr', '/lib', '/lib32', '/lib64', '/libx32', '/system', '/c/windows'],
    verbs: CHANGE_HIGH,
  },
  {
    id: 'installed_software',
    label: 'software installed for every user',
    prefixes: ['/usr/local', '/opt', '/c/program files', '/c/program files (x86)'],
    verbs: CHANGE_HIGH,
  },
  { id: 'root_home', label: "root's home directory", prefixes: ['/root'], verbs: CHANGE_HIGH },
  { id: 'devices', label: 'device files', prefixes: ['/dev'], verbs: CHANGE_HIGH },
  { id: 'kernel', label: 'kernel and process interfaces', prefixes: ['/proc', '/sys'], verbs: CHANGE_HIGH },
  { id: 'system_state', label: 'system state (package databases, service data)', prefixes: ['/var/lib', '/var/db', '/var/backups'], verbs: CHANGE_HIGH },
  {
    id: 'logs',
    label: 'system logs',
    prefixes: ['/var/log'],
    verbs: { write: 'medium', copy_into: 'medium', move_into: 'medium', move_away: 'high', delete: 'high', truncate: 'high', permissions: 'medium' },
  },
  { id: 'spool', label: 'spooled jobs and mail', prefixes: ['/var/spool'], verbs: CHANGE_HIGH },
];

/** A prefix a project adds: changing it asks for approval, like configuration. */
export const CUSTOM_ZONE: Omit<SystemZone, 'prefixes'> = { id: 'policy', label: 'a zone the project policy protects', verbs: CHANGE_HIGH };

export interface SystemZonesPolicy {
  /** Prefixes protected like system configuration, on top of the built-in zones. */
  add: string[];
  /** Prefixes where the built-in zones do not apply (a more specific zone still does). */
  exempt: string[];
}

interface ZonePrefix {
  zone: Omit<SystemZone, 'prefixes'>;
  prefix: PathPrefix;
}

export interface CompiledZones {
  prefixes: ZonePrefix[];
  exempt: PathPrefix[];
}

let builtIn: ZonePrefix[] | null = null;

export function compileZones(policy: SystemZonesPolicy | undefined): CompiledZones {
  builtIn ??= SYSTEM_ZONES.flatMap((zone) => zone.prefixes.map((p) => ({ zone, prefix: compilePathPrefix(p) })));
  const added = (policy?.add ?? []).map((p) => ({ zone: CUSTOM_ZONE, prefix: compilePathPrefix(p) }));
  // Longest first: the most specific prefix decides (/usr/local before /usr, /etc/shadow before /etc).
  const prefixes = [...builtIn, ...added].sort((a, b) => b.prefix.key.length - a.prefix.key.length);
  return { prefixes, exempt: (policy?.exempt ?? []).map(compilePathPrefix) };
}

export interface ZoneHit {
  zone: Omit<SystemZone, 'prefixes'>;
  severity: Severity;
  /** The prefix (or `pattern`) that put the path in the zone. */
  where: string;
}

/** The literal directories before a glob's first wildcard: what an exemption is compared with. */
function literalBase(key: string): string {
  const parts = key.split('/');
  const k = parts.findIndex((p) => hasPathGlob(p) || /[*?[{]/.test(p));
  return k < 0 ? key : parts.slice(0, k).join('/') || '/';
}

function exempted(path: NormalizedPath, zoneKey: string, zones: CompiledZones): boolean {
  const base = hasPathGlob(path.key) ? { ...path, key: literalBase(path.key) } : path;
  return zones.exempt.some((e) => e.key.length >= zoneKey.length && matchesPathPrefix(base, e));
}

const GRAVITY: Readonly<Record<Severity, number>> = { medium: 1, high: 2, critical: 3 };

/** Where `path` lies in the zone map and how grave `verb` is there; null when it is ordinary. */
export function zoneHit(path: NormalizedPath, verb: PathVerb, zones: CompiledZones): ZoneHit | null {
  if (ORDINARY_DEVICE.test(path.key)) return null;
  for (const zone of SYSTEM_ZONES) {
    const pattern = zone.patterns?.some((re) => re.test(path.key));
    const severity = zone.verbs[verb];
    // A verb the zone does not count falls to the next zone: /proc/<pid>/mem is a kernel trigger to write, raw memory to read.
    if (pattern && !exempted(path, path.key, zones) && severity) return { zone, severity, where: path.display };
  }
  const glob = hasPathGlob(path.key);
  let gravest: ZoneHit | null = null;
  for (const { zone, prefix } of zones.prefixes) {
    if (!matchesPathPrefix(path, prefix)) continue;
    const severity = exempted(path, prefix.key, zones) ? undefined : zone.verbs[verb];
    // A path is judged by its most specific zone; a glob may reach several (`rm /*/x`): the gravest counts.
    if (!glob) return severity ? { zone, severity, where: prefix.source } : null;
    if (severity && (!gravest || GRAVITY[severity] > GRAVITY[gravest.severity])) gravest = { zone, severity, where: prefix.source };
  }
  return gravest;
}
