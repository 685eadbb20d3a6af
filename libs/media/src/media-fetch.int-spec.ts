/**
 * fetchMedia against real servers on 127.0.0.1. Nothing here connects anywhere else:
 * redirects to other addresses must be refused by the guard before any connection.
 */
import { once } from 'node:events';
import http, { IncomingMessage, Server, ServerResponse } from 'node:http';
import https from 'node:https';
import { AddressInfo } from 'node:net';
import { DomainError } from '@cds/errors';
import { freePort } from '@cds/testing';
import { EgressRefusedError } from '@cds/egress';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from '../test/self-signed-cert';
import { fetchMedia, MediaFetchOptions } from './media-fetch';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface Origin {
  base: string;
  port: number;
  requests: IncomingMessage[];
}

const servers: Server[] = [];
const timers: NodeJS.Timeout[] = [];
const IMAGE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const OPTIONS: MediaFetchOptions = { maxBytes: 100_000, timeoutMs: 3_000, maxRedirects: 3, egress: { allowLoopback: true } };
const FAST = 5_000;

async function serve(handler: Handler, server: Server = http.createServer()): Promise<Origin> {
  const requests: IncomingMessage[] = [];
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    requests.push(req);
    handler(req, res);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const scheme = server instanceof https.Server ? 'https' : 'http';
  return { base: `${scheme}://127.0.0.1:${port}`, port, requests };
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const outcome = await promise.then(
    () => new Error('expected a DomainError; the fetch succeeded'),
    (err: unknown) => err,
  );
  if (outcome instanceof DomainError) return outcome;
  throw outcome;
}

/** Resolves once the server's response closes; true when it closed before sending everything. */
const cutShort = (res: ServerResponse) => new Promise<boolean>((resolve) => res.on('close', () => resolve(!res.writableFinished)));

afterEach(async () => {
  jest.restoreAllMocks();
  timers.splice(0).forEach(clearInterval);
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('fetchMedia', () => {
  it('GETs the bytes with the media headers and reports the type the server claimed', async () => {
    const origin = await serve((_, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(IMAGE));

    const fetched = await fetchMedia(`${origin.base}/cat.png?size=2`, OPTIONS);

    expect(fetched).toEqual({ bytes: IMAGE, finalUrl: `${origin.base}/cat.png?size=2`, contentType: 'image/png' });
    expect(origin.requests).toHaveLength(1);
    expect(origin.requests[0]).toMatchObject({ method: 'GET', url: '/cat.png?size=2' });
    expect(origin.requests[0].headers).toMatchObject({
      accept: 'image/*,video/*;q=0.9,*/*;q=0.5',
      'user-agent': 'cds-media-fetch/1',
      'accept-encoding': 'identity',
      host: `127.0.0.1:${origin.port}`,
    });
  });

  it('connects to the vetted address while naming the host it was asked for', async () => {
    const origin = await serve((_, res) => res.writeHead(200).end(IMAGE));
    const resolve = jest.fn(async (hostname: string) => (hostname === 'images.test' ? ['127.0.0.1'] : []));

    const fetched = await fetchMedia(`http://images.test:${origin.port}/a.png`, { ...OPTIONS, resolve });

    expect(fetched.bytes).toEqual(IMAGE);
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(origin.requests[0].headers.host).toBe(`images.test:${origin.port}`);
  });

  it('follows redirects, relative ones resolved against the URL that answered', async () => {
    const origin = await serve((req, res) => {
      if (req.url === '/a/start') res.writeHead(301, { location: 'next?x=1' }).end();
      else if (req.url === '/a/next?x=1') res.writeHead(307, { location: '/final.png' }).end();
      else if (req.url === '/final.png') res.writeHead(200, { 'content-type': 'image/png' }).end(IMAGE);
      else res.writeHead(404).end();
    });

    const fetched = await fetchMedia(`${origin.base}/a/start`, { ...OPTIONS, maxRedirects: 2 });

    expect(fetched).toEqual({ bytes: IMAGE, finalUrl: `${origin.base}/final.png`, contentType: 'image/png' });
    expect(origin.requests.map((r) => r.url)).toEqual(['/a/start', '/a/next?x=1', '/final.png']);
  });

  it('fails after maxRedirects redirects', async () => {
    const origin = await serve((_, res) => res.writeHead(302, { location: '/again' }).end());

    const error = await failure(fetchMedia(`${origin.base}/`, { ...OPTIONS, maxRedirects: 2 }));

    expect(error).toMatchObject({ kind: 'invalid', code: 'MEDIA_FETCH_FAILED', details: 'too many redirects (more than 2)' });
    expect(origin.requests).toHaveLength(3);
  });

  it.each([
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data', 'metadata'],
    ['a private address', 'http://10.0.0.1/internal.png', 'private'],
    ['an IPv4 address written in hex', 'http://0xa9fea9fe/latest/meta-data', 'metadata'],
  ])('refuses a redirect to %s as EGRESS_REFUSED, without connecting to it', async (_, location, range) => {
    const origin = await serve((_req, res) => res.writeHead(302, { location }).end());
    const connects = jest.spyOn(http, 'request');

    const error = await failure(fetchMedia(`${origin.base}/image.png`, OPTIONS));

    expect(error).toBeInstanceOf(EgressRefusedError);
    expect(error).toMatchObject({ kind: 'invalid', code: 'EGRESS_REFUSED', reason: 'forbidden_address', range });
    expect(connects).toHaveBeenCalledTimes(1); // the first hop only
  });

  it('vets the addresses a redirect target resolves to', async () => {
    const origin = await serve((_, res) => res.writeHead(302, { location: 'http://intranet.test/secret.png' }).end());
    const resolve = async (hostname: string) => (hostname === 'intranet.test' ? ['127.0.0.1', '192.168.1.20'] : []);
    const connects = jest.spyOn(http, 'request');

    const error = await failure(fetchMedia(`${origin.base}/`, { ...OPTIONS, resolve }));

    expect(error).toMatchObject({ code: 'EGRESS_REFUSED', reason: 'forbidden_address', address: '192.168.1.20' });
    expect(connects).toHaveBeenCalledTimes(1);
  });

  it('refuses a loopback URL when loopback is not allowed, before connecting', async () => {
    const origin = await serve((_, res) => res.writeHead(200).end(IMAGE));

    const error = await failure(fetchMedia(`${origin.base}/`, { ...OPTIONS, egress: {} }));

    expect(error).toMatchObject({ code: 'EGRESS_REFUSED', range: 'loopback' });
    expect(origin.requests).toHaveLength(0);
  });

  it('refuses a redirect to another scheme as EGRESS_REFUSED', async () => {
    const origin = await serve((_, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end());

    expect(await failure(fetchMedia(`${origin.base}/`, OPTIONS))).toMatchObject({ code: 'EGRESS_REFUSED', reason: 'unsupported_scheme' });
  });

  it.each([404, 500, 304])('fails on status %i', async (status) => {
    const origin = await serve((_, res) => res.writeHead(status).end());

    expect(await failure(fetchMedia(`${origin.base}/`, OPTIONS))).toMatchObject({ code: 'MEDIA_FETCH_FAILED', details: `status ${status}` });
  });

  it('fails on a redirect without a Location', async () => {
    const origin = await serve((_, res) => res.writeHead(302).end());

    expect(await failure(fetchMedia(`${origin.base}/`, OPTIONS))).toMatchObject({
      code: 'MEDIA_FETCH_FAILED',
      details: 'status 302 redirect without a Location',
    });
  });

  it(
    'gives up on a server trickling one byte a second at the deadline',
    async () => {
      let closed: Promise<boolean> = Promise.resolve(false);
      const origin = await serve((_, res) => {
        res.writeHead(200, { 'content-length': '1000' });
        closed = cutShort(res);
        timers.push(setInterval(() => res.write('x'), 1_000));
      });

      const error = await failure(fetchMedia(`${origin.base}/slow.png`, { ...OPTIONS, timeoutMs: 1_500 }));

      expect(error).toMatchObject({ code: 'MEDIA_FETCH_FAILED', details: 'timed out after 1500 ms' });
      expect(await closed).toBe(true);
    },
    FAST,
  );

  it(
    'counts the DNS lookup against the deadline',
    async () => {
      const resolve = () => new Promise<string[]>(() => undefined);

      const error = await failure(fetchMedia('http://never.test/a.png', { ...OPTIONS, timeoutMs: 300, resolve }));

      expect(error).toMatchObject({ code: 'MEDIA_FETCH_FAILED', details: 'timed out after 300 ms' });
    },
    FAST,
  );

  it('refuses a body whose Content-Length announces more than maxBytes, before reading it', async () => {
    let closed: Promise<boolean> = Promise.resolve(false);
    const origin = await serve((_, res) => {
      res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
      closed = cutShort(res);
      res.write(Buffer.alloc(1024));
    });

    const error = await failure(fetchMedia(`${origin.base}/`, { ...OPTIONS, maxBytes: 100_000 }));

    expect(error).toMatchObject({ code: 'MEDIA_FETCH_FAILED', details: 'larger than 100000 bytes' });
    expect(await closed).toBe(true);
  });

  it('aborts an unannounced body as soon as it passes maxBytes', async () => {
    let sent = 0;
    let closed: Promise<boolean> = Promise.resolve(false);
    const origin = await serve((_, res) => {
      res.writeHead(200, { 'content-type': 'image/png' }); // chunked, no length
      closed = cutShort(res);
      const chunk = Buffer.alloc(16 * 1024);
      const pump = () => {
        while (!res.destroyed && sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      pump();
    });

    const error = await failure(fetchMedia(`${origin.base}/`, { ...OPTIONS, maxBytes: 100_000 }));

    expect(error).toMatchObject({ code: 'MEDIA_FETCH_FAILED', details: 'larger than 100000 bytes' });
    expect(await closed).toBe(true);
    expect(sent).toBeLessThan(50 * 1024 * 1024);
  });

  it('takes a body of exactly maxBytes', async () => {
    const body = Buffer.alloc(100_000, 1);
    const origin = await serve((_, res) => res.writeHead(200).end(body));

    const fetched = await fetchMedia(`${origin.base}/`, { ...OPTIONS, maxBytes: 100_000 });

    expect(fetched.bytes.equals(body)).toBe(true);
  });

  it('fails when the connection drops before the body is complete', async () => {
    const origin = await serve((_, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write(Buffer.alloc(500), () => res.socket?.destroy());
    });

    expect(await failure(fetchMedia(`${origin.base}/`, OPTIONS))).toMatchObject({
      code: 'MEDIA_FETCH_FAILED',
      details: 'connection closed before the body was complete',
    });
  });

  it('fails when nothing listens', async () => {
    const port = await freePort();

    const error = await failure(fetchMedia(`http://127.0.0.1:${port}/`, OPTIONS));

    expect(error).toMatchObject({ code: 'MEDIA_FETCH_FAILED', details: `connection failed: connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('speaks TLS to https URLs, with SNI naming the host, and refuses a certificate no one vouches for', async () => {
    const names: string[] = [];
    const server = https.createServer({
      key: SELF_SIGNED_KEY,
      cert: SELF_SIGNED_CERT,
      SNICallback: (name, done) => {
        names.push(name);
        done(null);
      },
    });
    const origin = await serve((_, res) => res.writeHead(200).end(IMAGE), server);
    const resolve = async (hostname: string) => (hostname === 'localhost' ? ['127.0.0.1'] : []);

    const error = await failure(fetchMedia(`https://localhost:${origin.port}/a.png`, { ...OPTIONS, resolve }));

    expect(error).toMatchObject({ code: 'MEDIA_FETCH_FAILED', details: 'connection failed: self-signed certificate' });
    expect(names).toEqual(['localhost']);
    expect(origin.requests).toHaveLength(0);
  });
});
