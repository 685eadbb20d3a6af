import { checkEgressUrl, EgressRefusedError } from './egress-guard';

describe('egress guard with the system resolver', () => {
  it('refuses localhost, whatever its letter case', async () => {
    for (const url of ['http://localhost/', 'http://LOCALHOST:8080/hook']) {
      await expect(checkEgressUrl(url)).rejects.toMatchObject({ reason: 'forbidden_address', range: 'loopback' });
    }
  });

  it('permits localhost with allowLoopback and returns only loopback addresses', async () => {
    const { addresses } = await checkEgressUrl('http://localhost/', { allowLoopback: true });
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect(['127.0.0.1', '::1']).toContain(address);
  });

  it('reports a name that does not resolve', async () => {
    await expect(checkEgressUrl('http://no-such-host.invalid/')).rejects.toBeInstanceOf(EgressRefusedError);
    await expect(checkEgressUrl('http://no-such-host.invalid/')).rejects.toMatchObject({ reason: 'dns_failure' });
  });
});
