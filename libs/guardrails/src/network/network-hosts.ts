/**
 * Which hosts a command contacts, and whether networkAllowlist permits them. Allowlist
 * entries are `host` (exact), `*.example.com` (any subdomain, not the apex) or `*`.
 * Loopback hosts are never egress.
 */
import { flagsOf, SHELL_PROGRAMS } from '../shell/shell-command';
import { UNKNOWN_EXPANSION } from '../shell/shell-lexer';
import { ShellCommand } from '../shell/shell-parser';

export interface HostMention {
  host: string;
  /** The word it was found in, for the reason. */
  word: string;
}

const URL_RE = /\b([a-z][a-z0-9+.-]{1,15}):\/\/(?:[^\s/@?#]{0,256}@)?(\[[0-9a-f:.]{2,45}\]|[^\s/:?#'"<>|;,)\\]{1,253})/gi;
const DEV_TCP_RE = /\/dev\/(?:tcp|udp)\/([^/\s]{1,253})/gi;
const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]\.?$/i;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** Programs that only print or search text: a URL in their arguments is not a request. */
const TEXT_ONLY = new Set([
  'echo',
  'printf',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'sed',
  'awk',
  'jq',
  'yq',
  'tr',
  'cut',
  'sort',
  'uniq',
  'wc',
  'test',
  '[',
  '[[',
  'true',
  'false',
  ':',
  'export',
  'read',
]);
const NESTING = new Set([...SHELL_PROGRAMS, 'eval', 'su', 'watch', 'trap', 'alias']);
const FETCHERS = new Set([
  'curl',
  'wget',
  'http',
  'https',
  'httpie',
  'xh',
  'aria2c',
  'fetch',
  'lynx',
  'links',
  'w3m',
  'lwp-request',
  'invoke-webrequest',
  'iwr',
]);
const HOST_FIRST = new Set([
  'nc',
  'ncat',
  'netcat',
  'telnet',
  'ping',
  'ping6',
  'traceroute',
  'tracepath',
  'mtr',
  'dig',
  'nslookup',
  'host',
  'whois',
  'nmap',
  'ftp',
  'tftp',
  'ssh',
  'mosh',
  'sftp',
]);
const SCP_LIKE = new Set(['scp', 'rsync', 'sftp', 'git', 'ssh', 'sshfs']);
const FETCH_ARG_OPTIONS = new Set([
  '-o',
  '-H',
  '-d',
  '-X',
  '-u',
  '-A',
  '-e',
  '-F',
  '-T',
  '-b',
  '-c',
  '-K',
  '-w',
  '-m',
  '-r',
  '-C',
  '-E',
  '-P',
  '-U',
  '-t',
  '-a',
  '-i',
  '-O',
  '-Y',
  '--output',
  '--header',
  '--data',
  '--data-raw',
  '--data-binary',
  '--data-urlencode',
  '--request',
  '--user',
  '--user-agent',
  '--referer',
  '--form',
  '--upload-file',
  '--cookie',
  '--cookie-jar',
  '--config',
  '--write-out',
  '--max-time',
  '--connect-timeout',
  '--retry',
  '--cacert',
  '--cert',
  '--key',
  '--json',
  '--output-document',
  '--directory-prefix',
  '--post-data',
  '--post-file',
  '--tries',
  '--timeout',
]);
const HOST_FIRST_ARG_OPTIONS = new Set([
  '-p',
  '-e',
  '-c',
  '-w',
  '-s',
  '-i',
  '-q',
  '-x',
  '-X',
  '-W',
  '-t',
  '-b',
  '-l',
  '-F',
  '-o',
  '-J',
  '-L',
  '-R',
  '-D',
  '-I',
  '-m',
  '-O',
  '-Q',
  '-S',
  '-E',
  '-g',
  '-f',
  '-type',
  '-t',
]);

/** Labels computed at run time are dropped: `$(cat secret).evil.example` contacts evil.example. */
export function normalizeHost(raw: string): string {
  let h = raw.trim().toLowerCase();
  const dyn = h.lastIndexOf(UNKNOWN_EXPANSION);
  if (dyn >= 0) h = h.slice(dyn + UNKNOWN_EXPANSION.length).replace(/^[.-]+/, '') || UNKNOWN_EXPANSION;
  if (h.startsWith('[')) h = h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  else if (/^[^:]+:\d+$/.test(h)) h = h.slice(0, h.lastIndexOf(':'));
  return h.replace(/\.$/, '');
}

export function isLoopback(host: string): boolean {
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '::1' ||
    host === '0.0.0.0' ||
    host === '::'
  );
}

export function looksLikeHost(word: string): boolean {
  const h = normalizeHost(word);
  if (h === UNKNOWN_EXPANSION) return true;
  return h.length <= 253 && (HOSTNAME.test(h) || IPV4.test(h) || (h.includes(':') && /^[0-9a-f:.]+$/.test(h) && h.length > 2));
}

export function hostAllowed(host: string, allowlist: readonly string[]): boolean {
  const h = normalizeHost(host);
  for (const raw of allowlist) {
    const entry = normalizeHost(raw);
    if (entry === '*' || entry === h) return true;
    if (entry.startsWith('*.') && h.endsWith(entry.slice(1)) && h.length > entry.length - 1) return true;
  }
  return false;
}

/** Hosts mentioned as URLs anywhere in free text (prompt excerpts, targetPath). */
export function urlHosts(text: string): HostMention[] {
  const out: HostMention[] = [];
  for (const m of text.slice(0, 65_536).matchAll(URL_RE)) {
    if (m[1].toLowerCase() === 'file') continue;
    out.push({ host: normalizeHost(m[2]), word: m[0] });
  }
  return out;
}

/** Every host a simple command would contact. */
export function commandHosts(cmd: ShellCommand): HostMention[] {
  const { program, args } = cmd.unwrapped;
  const out: HostMention[] = [];
  const words = [...args, ...cmd.redirects.map((r) => r.target)];
  for (const w of words) {
    for (const m of w.matchAll(DEV_TCP_RE)) out.push({ host: normalizeHost(m[1]), word: w });
  }
  if (TEXT_ONLY.has(program) || (program === 'git' && ['commit', 'log', 'tag', 'notes', 'config'].includes(args[0] ?? ''))) return out;
  // Scripts passed to shells are parsed as nested commands, which report their own hosts.
  if (!NESTING.has(program)) for (const w of args) out.push(...urlHosts(w));
  const operands = operandsOf(args, FETCHERS.has(program) ? FETCH_ARG_OPTIONS : HOST_FIRST_ARG_OPTIONS);
  if (FETCHERS.has(program)) {
    for (const o of operands) {
      if (o.includes('://')) continue;
      if (/^\$\{?[A-Za-z_]/.test(o)) out.push({ host: UNKNOWN_EXPANSION, word: o });
      else if (looksLikeHost(o.split('/')[0])) out.push({ host: normalizeHost(o.split('/')[0]), word: o });
    }
  }
  if (HOST_FIRST.has(program)) {
    const first = program === 'dig' ? (operands.find((o) => o.startsWith('@'))?.slice(1) ?? operands[0]) : operands[0];
    if (first !== undefined && !first.includes('://')) {
      const host = first.includes('@') ? first.slice(first.lastIndexOf('@') + 1) : first;
      if (looksLikeHost(host.split(':')[0])) out.push({ host: normalizeHost(host.split(':')[0]), word: first });
    }
  }
  if (SCP_LIKE.has(program)) {
    for (const o of operands) {
      const m = /^(?:([^@\s/]{1,64})@)?([a-z0-9.-]{1,253}|\[[0-9a-f:]{2,45}\]):(?!\/\/)/i.exec(o);
      // `user@name:path` names a host even without a dot (a LAN name) for file copies; git keeps ssh aliases.
      const lanHost = m?.[1] !== undefined && program !== 'git' && /^[a-z][a-z0-9-]{0,62}$/i.test(m[2]);
      if (m && (looksLikeHost(m[2]) || lanHost) && !/^[a-z]$/i.test(m[2])) out.push({ host: normalizeHost(m[2]), word: o });
    }
  }
  if (program === 'socat') {
    for (const a of args) {
      // `TCP-LISTEN:8080` listens on this machine: only the connecting address types name a host.
      const m = /^(?:tcp[46]?|tcp[46]?-connect|udp[46]?|udp[46]?-(?:connect|sendto|datagram)|openssl|openssl-connect|ssl):([^:,]{1,253})/i.exec(a);
      if (m) out.push({ host: normalizeHost(m[1]), word: a });
    }
  }
  // gawk's special files: `/inet/tcp/0/HOST/PORT` connects to HOST (a local port of 0 means any).
  if (/^(?:g|m|n)?awk$/.test(program)) {
    for (const a of args)
      for (const m of a.matchAll(/\/inet[46]?\/(?:tcp|udp)\/\d{1,5}\/([^/"\s]{1,253})\/\d{1,5}/g))
        if (m[1] !== '0') out.push({ host: normalizeHost(m[1]), word: a });
  }
  return dedupe(out);
}

function operandsOf(args: readonly string[], argOptions: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('-') && a.length > 1) {
      if (argOptions.has(a)) i++;
      // A cluster ending in an option that takes a value (`curl -sLo file`) takes the next word.
      else if (!a.startsWith('--') && !a.includes('=') && clusterTakesNext(a, argOptions)) i++;
      continue;
    }
    out.push(a);
  }
  return flagsOf(out).operands;
}

function clusterTakesNext(a: string, argOptions: ReadonlySet<string>): boolean {
  for (let k = 1; k < a.length; k++) if (argOptions.has('-' + a[k])) return k === a.length - 1;
  return false;
}

function dedupe(list: HostMention[]): HostMention[] {
  const seen = new Set<string>();
  return list.filter((m) => (seen.has(m.host) ? false : (seen.add(m.host), true)));
}
