/**
 * Killing or stopping what keeps the system running or watched: PID 1, daemons such as
 * `sshd` or `auditd`, every process a `ps | grep` finds, services stopped or masked.
 * Killing one's own program (`pkill node`, `kill 12345`) is ordinary.
 */
import { flagsOf } from '../shell/shell-command';
import { ShellCommand } from '../shell/shell-parser';
import { CommandRisk, Severity } from './command-risk';

/** Daemons the machine needs to stay reachable, booted, logged in, scheduled and networked. */
const SYSTEM_DAEMONS = [
  'init',
  'systemd',
  'systemd-journald',
  'systemd-logind',
  'systemd-udevd',
  'systemd-networkd',
  'systemd-resolved',
  'systemd-timesyncd',
  'journald',
  'sshd',
  'ssh',
  'dropbear',
  'rsyslogd',
  'rsyslog',
  'syslogd',
  'syslog',
  'syslog-ng',
  'cron',
  'crond',
  'anacron',
  'atd',
  'dbus',
  'dbus-daemon',
  'udevd',
  'networkmanager',
  'network-manager',
  'wpa_supplicant',
  'dhclient',
  'dhcpcd',
  'chronyd',
  'ntpd',
  'polkitd',
  'agetty',
  'getty',
  'login',
  'containerd',
  'dockerd',
  'kubelet',
  'kube-apiserver',
  'etcd',
  'launchd',
  'xorg',
  'gdm',
  'gdm3',
  'lightdm',
  'sddm',
];
/** Security and audit agents: stopping them blinds the people watching the machine. */
const SECURITY_AGENTS = [
  'auditd',
  'auditbeat',
  'filebeat',
  'elastic-agent',
  'osqueryd',
  'wazuh-agentd',
  'wazuh-agent',
  'ossec',
  'falcon-sensor',
  'falcond',
  'falco',
  'sysmon',
  'splunkd',
  'clamd',
  'clamav-daemon',
  'freshclam',
  'fail2ban',
  'fail2ban-server',
  'sshguard',
  'apparmor',
  'firewalld',
  'ufw',
  'nftables',
  'iptables',
  'cbagentd',
  'sentinelagent',
  'sentinelone',
  'wdavdaemon',
  'mdatp',
  'qualys-cloud-agent',
  'aide',
  'tripwire',
  'crowdstrike',
  'cylancesvc',
  'tanium',
  'taniumclient',
  'carbonblack',
  'xagt',
  'amazon-ssm-agent',
  'google_guest_agent',
  'waagent',
  'pf',
  'cbdaemon',
  'littlesnitch',
  'littlesnitchd',
  'opendns',
  'syspolicyd',
  'xprotect',
];
const CRITICAL_NAMES = new Map<string, string>([
  ...SYSTEM_DAEMONS.map((n): [string, string] => [n, 'a system daemon']),
  ...SECURITY_AGENTS.map((n): [string, string] => [n, 'a security or audit agent']),
]);

/** What a process or service name is, when it is one of the machine's own ("sshd.service" is sshd). */
export function systemProcessKind(name: string): string | null {
  const n = name
    .toLowerCase()
    .replace(/\.(?:service|socket|target)$/, '')
    .replace(/\[(.)\]/g, '$1')
    .replace(/^\^|\$$/g, '');
  return CRITICAL_NAMES.get(n) ?? CRITICAL_NAMES.get(n.replace(/d$/, '')) ?? null;
}

const SERVICE_STOPS = new Set(['stop', 'disable', 'mask', 'kill']);

function risk(c: ShellCommand, severity: Severity, description: string): CommandRisk {
  return { rule: 'system_process', severity, description, command: c, category: 'process_control' };
}

/** PIDs a signal is sent to, with where they come from (`$(pgrep sshd)`, `ps | grep x | xargs kill`). */
function pidSources(c: ShellCommand, pipeline: readonly ShellCommand[]): ShellCommand[] {
  const upstream = pipeline.slice(0, pipeline.indexOf(c));
  return [...c.substituted, ...upstream];
}

/** Names a `ps | grep NAME`, `pgrep NAME` or `pidof NAME` selects; null when `ps` lists every process. */
function selectedNames(sources: readonly ShellCommand[]): string[] | null {
  const names: string[] = [];
  let ps = false;
  for (const s of sources) {
    const { program, args } = s.unwrapped;
    const ops = flagsOf(args).operands;
    if (program === 'ps') ps = true;
    if (program === 'pgrep' || program === 'pidof') names.push(...ops);
    if ((program === 'grep' || program === 'egrep') && !args.some((a) => /^-[a-z]*v/.test(a))) names.push(...ops.slice(0, 1));
    if (program === 'awk' && ops.some((o) => /\/[^/]+\//.test(o))) names.push(...ops.flatMap((o) => [...o.matchAll(/\/([^/]{1,64})\//g)].map((m) => m[1])));
  }
  return ps && names.length === 0 ? null : names;
}

/** kill / pkill / killall / systemctl stop of what keeps the system up or watched. */
export function processControlRisks(c: ShellCommand, pipeline: readonly ShellCommand[]): CommandRisk[] {
  const { program, args } = c.unwrapped;
  const out: CommandRisk[] = [];
  const f = flagsOf(args);
  const named = (names: readonly string[], how: string) => {
    for (const n of names) {
      const kind = systemProcessKind(n);
      if (kind) {
        out.push(risk(c, 'high', `${how} ${n}, ${kind}`));
        return;
      }
    }
  };
  if (program === 'kill') {
    const pids = f.operands.filter((a) => !/^-/.test(a));
    if (pids.includes('1')) out.push(risk(c, 'critical', 'kills PID 1 (init), which brings the whole system down'));
    const sources = pidSources(c, pipeline);
    if (sources.length > 0) {
      const names = selectedNames(sources);
      if (names === null) out.push(risk(c, 'high', 'kills every process ps lists'));
      else named(names, 'kills');
    }
  }
  if (program === 'pkill' || program === 'killall' || program === 'skill' || program === 'pgrep') {
    if (program !== 'pgrep') {
      const user = args.findIndex((a) => a === '-u' || a === '-U' || a === '--user');
      if (user >= 0 && ['root', '0'].includes(args[user + 1] ?? '')) out.push(risk(c, 'high', `${program} of every process of root`));
      const ops = f.operands.filter((o, k) => !(user >= 0 && k === 0 && o === args[user + 1]));
      if (ops.some((o) => /^(?:\.\*?|\.\+|\*|)$/.test(o))) out.push(risk(c, 'high', `${program} with a pattern that matches every process`));
      named(ops, `${program} of`);
    }
  }
  if (program === 'systemctl' || program === 'service' || program === 'rc-service' || program === 'sv' || program === 'launchctl') {
    const ops = f.operands;
    const verb = program === 'service' || program === 'rc-service' ? ops[1] : ops[0];
    const units = program === 'service' || program === 'rc-service' ? ops.slice(0, 1) : ops.slice(1);
    const stops = SERVICE_STOPS.has(verb ?? '') || (program === 'launchctl' && ['unload', 'remove', 'bootout', 'disable'].includes(verb ?? ''));
    if (stops) named(units, `${program} ${verb}`);
    if (program === 'systemctl' && verb === 'isolate' && /^(?:rescue|emergency|halt|poweroff)/.test(units[0] ?? ''))
      out.push(risk(c, 'high', `switches the machine to ${units[0]} (most services stop)`));
  }
  if (/^\/etc\/init\.d\//.test(c.unwrapped.programPath) && ['stop', 'force-stop'].includes(args[0] ?? '')) {
    named([c.unwrapped.programPath.slice('/etc/init.d/'.length)], 'stops');
  }
  if ((program === 'update-rc.d' && ['disable', 'remove'].includes(args[1] ?? '')) || (program === 'chkconfig' && args[1] === 'off')) {
    named(args.slice(0, 1), `${program} turns off`);
  }
  return out;
}
