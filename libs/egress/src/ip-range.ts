/**
 * Which special-purpose range an address belongs to (IANA IPv4/IPv6 special-purpose
 * registries, plus the cloud metadata endpoints). Anything not listed is `public`.
 */
import { IpAddress, parseIp } from './ip-address';

export type IpRange =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'metadata'
  | 'unspecified'
  | 'shared' // 100.64/10, carrier-grade NAT
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'benchmark'
  | 'documentation';

interface Cidr {
  network: Uint8Array;
  bits: number;
}

interface RangeEntry {
  cidr: Cidr;
  range: IpRange;
}

/** First match wins, so single addresses come before the blocks that contain them. */
const IPV4_RANGES = table([
  ['169.254.169.254/32', 'metadata'], // AWS, GCP, Azure, Oracle, DigitalOcean...
  ['169.254.170.2/32', 'metadata'], // AWS ECS task credentials
  ['169.254.170.23/32', 'metadata'], // AWS EKS pod identity
  ['100.100.100.200/32', 'metadata'], // Alibaba Cloud
  ['255.255.255.255/32', 'broadcast'],
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link_local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmark'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
]);

const IPV6_RANGES = table([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['fd00:ec2::254/128', 'metadata'], // AWS IMDS over IPv6
  ['fd00:ec2::23/128', 'metadata'], // AWS EKS pod identity
  ['64:ff9b:1::/48', 'private'], // local-use NAT64
  ['100::/64', 'reserved'], // discard-only
  ['2001:2::/48', 'benchmark'],
  ['2001::/23', 'reserved'], // protocol assignments: Teredo tunnels, ORCHID, ...
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  ['fc00::/7', 'private'],
  ['fe80::/10', 'link_local'],
  ['fec0::/10', 'private'], // deprecated site-local
  ['ff00::/8', 'multicast'],
]);

const GLOBAL_UNICAST = cidr('2000::/3');

/** IPv6 forms that carry an IPv4 address a connection may end up reaching. */
const IPV4_CARRIERS = [
  { cidr: cidr('::ffff:0:0/96'), offset: 12, routable: true }, // IPv4-mapped
  { cidr: cidr('64:ff9b::/96'), offset: 12, routable: true }, // NAT64
  { cidr: cidr('2002::/16'), offset: 2, routable: true }, // 6to4
  { cidr: cidr('::/96'), offset: 12, routable: false }, // IPv4-compatible, deprecated
];

export function classifyIp(address: IpAddress): IpRange {
  return address.family === 4 ? classifyIpv4(address.bytes) : classifyIpv6(address.bytes);
}

function classifyIpv4(bytes: Uint8Array): IpRange {
  return firstMatch(IPV4_RANGES, bytes) ?? 'public';
}

function classifyIpv6(bytes: Uint8Array): IpRange {
  const listed = firstMatch(IPV6_RANGES, bytes);
  if (listed) return listed;
  for (const carrier of IPV4_CARRIERS) {
    if (!contains(carrier.cidr, bytes)) continue;
    const inner = classifyIpv4(bytes.subarray(carrier.offset, carrier.offset + 4));
    if (inner !== 'public') return inner;
    return carrier.routable ? 'public' : 'reserved';
  }
  return contains(GLOBAL_UNICAST, bytes) ? 'public' : 'reserved';
}

function firstMatch(entries: readonly RangeEntry[], bytes: Uint8Array): IpRange | undefined {
  return entries.find((entry) => contains(entry.cidr, bytes))?.range;
}

function contains({ network, bits }: Cidr, bytes: Uint8Array): boolean {
  if (network.length !== bytes.length) return false;
  const whole = bits >> 3;
  for (let i = 0; i < whole; i++) if (network[i] !== bytes[i]) return false;
  const rest = bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (network[whole] & mask) === (bytes[whole] & mask);
}

function table(entries: [string, IpRange][]): RangeEntry[] {
  return entries.map(([text, range]) => ({ cidr: cidr(text), range }));
}

function cidr(text: string): Cidr {
  const [address, bits] = text.split('/');
  const parsed = parseIp(address);
  if (!parsed) throw new Error(`bad CIDR in table: ${text}`);
  return { network: parsed.bytes, bits: Number(bits) };
}
