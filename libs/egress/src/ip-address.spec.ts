import { parseIp } from './ip-address';

const hex = (text: string) => {
  const parsed = parseIp(text);
  return parsed && `${parsed.family}:${Buffer.from(parsed.bytes).toString('hex')}`;
};

describe('parseIp', () => {
  it.each([
    ['127.0.0.1', '4:7f000001'],
    ['0.0.0.0', '4:00000000'],
    ['255.255.255.255', '4:ffffffff'],
    ['::', '6:00000000000000000000000000000000'],
    ['::1', '6:00000000000000000000000000000001'],
    ['[::1]', '6:00000000000000000000000000000001'],
    ['2001:db8::8a2e:370:7334', '6:20010db80000000000008a2e03707334'],
    ['2001:DB8:0:0:0:0:0:1', '6:20010db8000000000000000000000001'],
    ['::ffff:127.0.0.1', '6:00000000000000000000ffff7f000001'],
    ['::ffff:7f00:1', '6:00000000000000000000ffff7f000001'],
    ['64:ff9b::10.0.0.1', '6:0064ff9b00000000000000000a000001'],
    ['fe80::1%eth0', '6:fe800000000000000000000000000001'],
    ['1:2:3:4:5:6:7::', '6:00010002000300040005000600070000'],
    ['::2:3:4:5:6:7:8', '6:00000002000300040005000600070008'],
  ])('reads %s', (text, expected) => {
    expect(hex(text)).toBe(expected);
  });

  it.each([
    ['0177.0.0.1', 'leading zero: octal to some resolvers'],
    ['127.1', 'short form'],
    ['2130706433', 'single number'],
    ['0x7f.0.0.1', 'hex part'],
    ['256.0.0.1', 'octet too large'],
    ['1.2.3.4.5', 'five parts'],
    ['1.2.3.', 'empty part'],
    ['', 'empty'],
    ['example.com', 'a name'],
    ['1::2::3', 'two ::'],
    ['1:2:3:4:5:6:7:8:9', 'nine groups'],
    ['1:2:3:4:5:6:7', 'seven groups without ::'],
    ['1:2:3:4:5:6:7:8::', ':: with nothing left to fill'],
    ['12345::', 'group of five digits'],
    ['g::1', 'not hex'],
    ['1.2.3.4::', 'IPv4 before ::'],
    ['::1.2.3.4:5', 'IPv4 not last'],
    [':1', 'single leading colon'],
  ])('rejects %s (%s)', (text) => {
    expect(parseIp(text)).toBeNull();
  });
});
