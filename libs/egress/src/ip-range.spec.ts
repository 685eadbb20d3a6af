import { parseIp } from './ip-address';
import { classifyIp, IpRange } from './ip-range';

const rangeOf = (text: string): IpRange => {
  const parsed = parseIp(text);
  if (!parsed) throw new Error(`test address does not parse: ${text}`);
  return classifyIp(parsed);
};

describe('classifyIp', () => {
  it.each<[string, IpRange]>([
    // IPv4
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['93.184.215.14', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['192.168.1.1', 'private'],
    ['192.169.0.1', 'public'],
    ['169.254.1.1', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['100.128.0.0', 'public'],
    ['100.63.255.255', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'benchmark'],
    ['198.19.255.255', 'benchmark'],
    ['198.20.0.0', 'public'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    // IPv6
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:82a::200e', 'public'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fec0::1', 'private'],
    ['fe80::1', 'link_local'],
    ['febf::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001:2::1', 'benchmark'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'], // Teredo
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'], // outside global unicast 2000::/3
    // IPv6 carrying IPv4
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'], // IPv4-compatible
    ['::8.8.8.8', 'reserved'], // IPv4-compatible is deprecated even when the IPv4 is public
    ['64:ff9b::127.0.0.1', 'loopback'], // NAT64
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['64:ff9b:1::1', 'private'],
    ['2002:7f00:1::', 'loopback'], // 6to4 of 127.0.0.1
    ['2002:c0a8:101::1', 'private'], // 6to4 of 192.168.1.1
    ['2002:808:808::1', 'public'],
  ])('%s is %s', (address, range) => {
    expect(rangeOf(address)).toBe(range);
  });
});
