import { once } from 'node:events';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { checkEgressUrl, EgressRefusedError } from './egress-guard';
import { deliver } from './http-delivery';

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

  it('delivers to localhost through the pinned system answer', async () => {
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200).end(req.headers.host);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      const result = await deliver({
        url: `http://localhost:${port}/hook`,
        body: '{}',
        headers: {},
        timeoutMs: 2_000,
        maxResponseBytes: 1_024,
        egress: { allowLoopback: true },
      });
      expect(result).toMatchObject({ ok: true, status: 200, responseSnippet: `localhost:${port}` });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
