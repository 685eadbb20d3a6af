import { DomainError } from '@cds/errors';
import { checkEgressUrl, EgressCheckOptions, EgressRefusedError, Resolver } from './egress-guard';

const PUBLIC = '93.184.215.14';
const resolvesTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses;
const noDns: Resolver = async (host) => {
  throw new Error(`unexpected DNS lookup of ${host}`);
};

async function refusal(url: string, options: EgressCheckOptions = {}): Promise<EgressRefusedError> {
  const outcome = await checkEgressUrl(url, { resolve: noDns, ...options }).then(
    (target) => target,
    (err: unknown) => err,
  );
  if (!(outcome instanceof EgressRefusedError)) throw new Error(`expected a refusal of ${url}, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('checkEgressUrl', () => {
  it('returns the URL and the vetted addresses of a public host', async () => {
    const target = await checkEgressUrl('https://hooks.example.com/in?x=1', { resolve: resolvesTo(PUBLIC, '2606:4700::1') });
    expect(target.url.hostname).toBe('hooks.example.com');
    expect(target.addresses).toEqual([PUBLIC, '2606:4700::1']);
  });

  it('resolves the host name given in the URL', async () => {
    const resolve = jest.fn(resolvesTo(PUBLIC));
    await checkEgressUrl('http://Hooks.Example.COM./x', { resolve });
    expect(resolve).toHaveBeenCalledWith('hooks.example.com.');
  });

  it('uses an IP literal as is, without DNS', async () => {
    await expect(checkEgressUrl(`http://${PUBLIC}:8080/`, { resolve: noDns })).resolves.toMatchObject({ addresses: [PUBLIC] });
    await expect(checkEgressUrl('http://[2606:4700::1]/', { resolve: noDns })).resolves.toMatchObject({ addresses: ['2606:4700::1'] });
  });

  it.each([
    ['ftp://example.com/', 'unsupported_scheme'],
    ['file:///etc/passwd', 'unsupported_scheme'],
    ['gopher://example.com/', 'unsupported_scheme'],
    ['javascript:alert(1)', 'unsupported_scheme'],
    ['not a url', 'invalid_url'],
    ['/relative/path', 'invalid_url'],
    ['http://1.2.3.4.5/', 'invalid_url'],
    ['http://user:pass@example.com/', 'credentials_in_url'],
    ['http://user@example.com/', 'credentials_in_url'],
    ['http://:pass@example.com/', 'credentials_in_url'],
  ])('refuses %s (%s)', async (url, reason) => {
    expect((await refusal(url)).reason).toBe(reason);
  });

  // Every spelling below reaches 127.0.0.1 or ::1 on some resolver.
  it.each([
    'http://127.0.0.1/',
    'http://127.0.0.1./',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.0.0.1/',
    'http://0177.0.0.1/',
    'http://0177.1/',
    'http://%31%32%37.0.0.1/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[2002:7f00:1::]/',
    'HTTP://127.0.0.1:8080/',
  ])('refuses the loopback spelling %s without resolving it', async (url) => {
    const err = await refusal(url);
    expect(err).toMatchObject({ reason: 'forbidden_address', range: 'loopback' });
    expect(err.message).toMatch(/^Egress refused: .*loopback/);
  });

  it.each([
    ['http://0/', 'unspecified'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://10.1.2.3/', 'private'],
    ['http://192.168.0.1/', 'private'],
    ['http://[fd00::1]/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['http://[fd00:ec2::254]/', 'metadata'],
    ['http://100.100.100.200/', 'metadata'],
    ['http://[::ffff:169.254.169.254]/', 'metadata'],
    ['http://[fe80::1]/', 'link_local'],
    ['http://100.64.0.1/', 'shared'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://240.0.0.1/', 'reserved'],
    ['http://198.18.0.1/', 'benchmark'],
    ['http://192.0.2.1/', 'documentation'],
  ])('refuses %s as %s', async (url, range) => {
    expect(await refusal(url)).toMatchObject({ reason: 'forbidden_address', range });
  });

  it('refuses a host when any one of its addresses is forbidden', async () => {
    const err = await refusal('http://mixed.example.com/', { resolve: resolvesTo(PUBLIC, '10.0.0.5') });
    expect(err).toMatchObject({ reason: 'forbidden_address', address: '10.0.0.5', range: 'private' });
    expect(err.message).toBe('Egress refused: mixed.example.com (10.0.0.5) is a private network address');
  });

  it('refuses names that resolve to loopback in IPv4-mapped form', async () => {
    expect(await refusal('http://sneaky.example.com/', { resolve: resolvesTo('::ffff:127.0.0.1') })).toMatchObject({ range: 'loopback' });
  });

  it('refuses a resolver answer that is not a plain IP address', async () => {
    expect(await refusal('http://odd.example.com/', { resolve: resolvesTo('0177.0.0.1') })).toMatchObject({ reason: 'unparseable_address' });
  });

  it('reports a DNS failure or an empty answer as dns_failure', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const err = await refusal('http://nowhere.invalid/', { resolve: failing });
    expect(err).toMatchObject({ reason: 'dns_failure', message: 'DNS lookup failed for nowhere.invalid (ENOTFOUND)' });
    expect((await refusal('http://empty.example.com/', { resolve: resolvesTo() })).reason).toBe('dns_failure');
  });

  it('gives up on a host that does not resolve within resolveTimeoutMs (dns_timeout)', async () => {
    const hanging: Resolver = () => new Promise<string[]>(() => undefined);
    const err = await refusal('http://slow.example.com/', { resolve: hanging, resolveTimeoutMs: 20 });
    expect(err).toMatchObject({ reason: 'dns_timeout', message: 'DNS lookup of slow.example.com did not answer within 20 ms' });
    const late: Resolver = () => new Promise((r) => setTimeout(() => r([PUBLIC]), 5));
    await expect(checkEgressUrl('http://late.example.com/', { resolve: late, resolveTimeoutMs: 1000 })).resolves.toMatchObject({ addresses: [PUBLIC] });
  });

  it('is a 422-kind domain error with a stable code', async () => {
    const err = await refusal('http://127.0.0.1/');
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ kind: 'invalid', code: 'EGRESS_REFUSED', details: 'forbidden_address' });
  });

  describe('allowLoopback', () => {
    it('permits loopback, including its mapped form', async () => {
      await expect(checkEgressUrl('http://127.0.0.1:9/', { allowLoopback: true })).resolves.toMatchObject({ addresses: ['127.0.0.1'] });
      await expect(checkEgressUrl('http://[::ffff:127.0.0.1]/', { allowLoopback: true })).resolves.toMatchObject({ addresses: ['::ffff:7f00:1'] });
    });

    it.each(['http://10.0.0.1/', 'http://169.254.1.1/', 'http://169.254.169.254/'])('still refuses %s', async (url) => {
      expect((await refusal(url, { allowLoopback: true })).reason).toBe('forbidden_address');
    });
  });

  describe('allowPrivate', () => {
    it.each(['http://10.0.0.1/', 'http://172.16.5.4/', 'http://[fd12::1]/', 'http://169.254.1.1/', 'http://[fe80::1]/', 'http://127.0.0.1/'])(
      'permits %s',
      async (url) => {
        await expect(checkEgressUrl(url, { allowPrivate: true, resolve: noDns })).resolves.toBeDefined();
      },
    );

    it.each([
      'http://169.254.169.254/',
      'http://169.254.170.2/',
      'http://[fd00:ec2::254]/',
      'http://100.100.100.200/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://0.0.0.0/',
      'http://224.0.0.1/',
    ])('never permits %s', async (url) => {
      expect((await refusal(url, { allowPrivate: true, allowLoopback: true })).reason).toBe('forbidden_address');
    });

    it('refuses a name resolving to the metadata address', async () => {
      const err = await refusal('http://metadata.google.internal/', { allowPrivate: true, resolve: resolvesTo('169.254.169.254') });
      expect(err).toMatchObject({ range: 'metadata' });
    });
  });
});
