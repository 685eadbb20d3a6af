import { once } from 'node:events';
import { AddressInfo } from 'node:net';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { deliver, DeliveryRequest } from './http-delivery';
import { signPayload, verifySignature } from './signature';

interface Receiver {
  url: string;
  port: number;
  requests: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[];
}

const servers: Server[] = [];

async function receiver(respond: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<Receiver> {
  const requests: Receiver['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      respond(req, res, body);
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, port, requests };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const BODY = JSON.stringify({ id: 'evt_1', type: 'decision.created', createdAt: '2025-01-01T00:00:00Z', data: { id: 'dec_1' } });
const request = (url: string, extra: Partial<DeliveryRequest> = {}): DeliveryRequest => ({
  url,
  body: BODY,
  headers: {},
  timeoutMs: 2_000,
  maxResponseBytes: 4_096,
  egress: { allowLoopback: true },
  ...extra,
});

describe('deliver', () => {
  it('POSTs the body and signature to a receiver that verifies them, and reports its 2xx', async () => {
    const secret = 'whsec_integration';
    const target = await receiver((req, res, body) => {
      try {
        verifySignature({ header: req.headers['x-service-signature'], rawBody: body, secret });
        res.writeHead(200).end('thanks');
      } catch {
        res.writeHead(401).end('bad signature');
      }
    });
    const signature = signPayload(secret, BODY, Math.floor(Date.now() / 1000));

    const result = await deliver(request(`${target.url}?attempt=1`, { headers: { 'x-service-signature': signature } }));

    expect(result).toMatchObject({ ok: true, status: 200, error: null, responseSnippet: 'thanks' });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0]).toMatchObject({ method: 'POST', url: '/hook?attempt=1', body: BODY });
    expect(target.requests[0].headers).toMatchObject({ 'content-type': 'application/json', host: `127.0.0.1:${target.port}` });
  });

  it('reports the receiver rejecting a wrongly signed delivery', async () => {
    const target = await receiver((req, res, body) => {
      try {
        verifySignature({ header: req.headers['x-service-signature'], rawBody: body, secret: 'whsec_receiver' });
        res.writeHead(200).end();
      } catch {
        res.writeHead(401).end('bad signature');
      }
    });
    const signature = signPayload('whsec_someone_else', BODY, Math.floor(Date.now() / 1000));
    const result = await deliver(request(target.url, { headers: { 'x-service-signature': signature } }));
    expect(result).toMatchObject({ ok: false, status: 401, error: 'receiver answered 401', responseSnippet: 'bad signature' });
  });

  it('reports a 500 as a failure with the response body', async () => {
    const target = await receiver((_req, res) => res.writeHead(500).end('database down'));
    const result = await deliver(request(target.url));
    expect(result).toMatchObject({ ok: false, status: 500, error: 'receiver answered 500', responseSnippet: 'database down' });
  });

  it('does not follow a redirect', async () => {
    const elsewhere = await receiver((_req, res) => res.writeHead(200).end());
    const target = await receiver((_req, res) => res.writeHead(302, { location: elsewhere.url }).end());

    const result = await deliver(request(target.url));

    expect(result).toMatchObject({ ok: false, status: 302, error: `redirect not followed: 302 to ${elsewhere.url}` });
    expect(target.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('gives up on a receiver that never answers once the timeout passes', async () => {
    const target = await receiver(() => undefined);
    const result = await deliver(request(target.url, { timeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, status: null, error: 'timed out after 300 ms', responseSnippet: '' });
    expect(target.requests).toHaveLength(1);
    // Generous bounds: this checks the timeout is what ended it, not how fast the machine is.
    expect(result.durationMs).toBeGreaterThanOrEqual(250);
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it('counts the time spent receiving the body against the timeout', async () => {
    const target = await receiver((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
    });
    const result = await deliver(request(target.url, { timeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, status: 200, error: 'timed out after 300 ms', responseSnippet: 'partial' });
  });

  it('reads at most maxResponseBytes of a huge response and hangs up on the rest', async () => {
    let serverFinished: Promise<boolean> = Promise.resolve(true);
    const target = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      serverFinished = new Promise((resolve) => res.on('close', () => resolve(res.writableFinished)));
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 64 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });

    const result = await deliver(request(target.url, { maxResponseBytes: 1_000 }));

    expect(result).toMatchObject({ ok: true, status: 200, error: null, responseSnippet: 'x'.repeat(1_000) });
    expect(await serverFinished).toBe(false);
  });

  it('reports a refused connection', async () => {
    const gone = await receiver(() => undefined);
    const server = servers.pop() as Server;
    await new Promise((resolve) => server.close(resolve));

    const result = await deliver(request(gone.url));

    expect(result).toMatchObject({ ok: false, status: null, responseSnippet: '' });
    expect(result.error).toBe(`request failed: connect ECONNREFUSED 127.0.0.1:${gone.port}`);
  });

  it('reports a connection reset before any answer', async () => {
    const target = await receiver((req) => req.socket.destroy());
    const result = await deliver(request(target.url));
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).toMatch(/^request failed: (socket hang up|read ECONNRESET)$/);
  });

  it('reports a response cut off mid-body', async () => {
    const target = await receiver((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('only part', () => res.destroy());
    });
    const result = await deliver(request(target.url));
    expect(result).toMatchObject({ ok: false, status: 200, error: 'connection closed before the response was complete', responseSnippet: 'only part' });
  });

  describe('egress', () => {
    it('refuses loopback unless allowed, without contacting it', async () => {
      const target = await receiver((_req, res) => res.writeHead(200).end());
      const result = await deliver(request(target.url, { egress: {} }));
      expect(result).toMatchObject({ ok: false, status: null, error: 'Egress refused: 127.0.0.1 is a loopback address' });
      expect(target.requests).toHaveLength(0);
    });

    it('refuses a name resolving to loopback in IPv4-mapped form', async () => {
      const target = await receiver((_req, res) => res.writeHead(200).end());
      const resolve = async () => ['::ffff:127.0.0.1'];
      const result = await deliver(request(`http://hooks.example.test:${target.port}/`, { egress: {}, resolve }));
      expect(result.error).toBe('Egress refused: hooks.example.test (::ffff:127.0.0.1) is a loopback address');
      expect(target.requests).toHaveLength(0);
    });

    it('connects to the address it vetted, resolving the name only once, and keeps the Host header', async () => {
      const target = await receiver((_req, res) => res.writeHead(204).end());
      // A rebinding resolver: harmless the first time, internal afterwards.
      const resolve = jest.fn<Promise<string[]>, [string]>().mockResolvedValueOnce(['127.0.0.1']).mockResolvedValue(['10.0.0.1']);

      const result = await deliver(request(`http://hooks.rebind.test:${target.port}/hook`, { resolve }));

      expect(result).toMatchObject({ ok: true, status: 204 });
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(resolve).toHaveBeenCalledWith('hooks.rebind.test');
      expect(target.requests).toHaveLength(1);
      expect(target.requests[0].headers.host).toBe(`hooks.rebind.test:${target.port}`);
    });

    it('reports a DNS failure', async () => {
      const resolve = async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
      };
      const result = await deliver(request('http://nowhere.invalid/hook', { resolve }));
      expect(result).toMatchObject({ ok: false, status: null, error: 'DNS lookup failed for nowhere.invalid (ENOTFOUND)' });
    });

    it('bounds a DNS lookup that never answers by the timeout', async () => {
      const resolve = () => new Promise<string[]>(() => undefined);
      const result = await deliver(request('http://slow-dns.example.test/hook', { resolve, timeoutMs: 200 }));
      expect(result).toMatchObject({ ok: false, status: null, error: 'timed out after 200 ms' });
    });

    it('reports a URL that is not http(s)', async () => {
      const result = await deliver(request('ftp://files.example.com/'));
      expect(result).toMatchObject({ ok: false, status: null, error: 'Egress refused: only http and https URLs are allowed, not ftp:' });
    });
  });
});

describe('deliver with the system resolver', () => {
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
