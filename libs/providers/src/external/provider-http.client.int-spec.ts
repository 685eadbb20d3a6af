import http from 'node:http';
import { AddressInfo } from 'node:net';
import { ProviderHttpClient, ProviderHttpOptions } from './provider-http.client';
import { FakeProviderServer } from './test/fake-provider.server';
import { failure } from './test/provider-contract.kit';

const options = (over: Partial<ProviderHttpOptions> = {}): ProviderHttpOptions => ({
  provider: 'p',
  timeoutMs: 500,
  retryBudgetMs: 3000,
  maxRetries: 2,
  secrets: ['s3cret'],
  backoff: { baseMs: 10, maxMs: 40 },
  ...over,
});
const identity = (json: unknown) => json;

describe('ProviderHttpClient over real HTTP', () => {
  let server: FakeProviderServer;
  beforeAll(async () => (server = await FakeProviderServer.start()));
  afterAll(() => server.close());

  it('retries a refused connection as a network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const err = await failure(new ProviderHttpClient(options()).postJson({ url: `http://127.0.0.1:${port}/x`, headers: {}, body: {} }, identity));
    expect(err).toMatchObject({ reason: 'network', retryable: true, status: undefined, providerMessage: 'ECONNREFUSED' });
  });

  it('honours a Retry-After given as an HTTP date', async () => {
    server.answer({ status: 503, headers: { 'retry-after': new Date(Date.now() + 1500).toUTCString() }, body: {} }, { status: 200, body: { ok: true } });
    await expect(new ProviderHttpClient(options()).postJson({ url: server.baseUrl, headers: {}, body: {} }, identity)).resolves.toEqual({ ok: true });
    const [a, b] = server.requests;
    expect(b.at - a.at).toBeGreaterThanOrEqual(400);
  });

  it('stops retrying when the budget is spent, even with retries left', async () => {
    server.answer({ status: 502, body: {} });
    // Jitter pinned to its top (each wait exactly 100 ms), so at most 1 + 300/100 attempts fit.
    const err = await failure(
      new ProviderHttpClient(options({ maxRetries: 10, retryBudgetMs: 300, backoff: { baseMs: 100, maxMs: 100 }, random: () => 1 })).postJson(
        { url: server.baseUrl, headers: {}, body: {} },
        identity,
      ),
    );
    expect(err).toMatchObject({ reason: 'server_error', status: 502 });
    expect(server.requests.length).toBeLessThanOrEqual(4);
  });

  it('names the failure before an attempt the budget cut short, not the cut', async () => {
    server.answer({ status: 502, body: {} }, { status: 200, body: { ok: true }, delayMs: 2_000 });
    // the second attempt has ~240 ms of the budget left, under its 500 ms timeout
    const err = await failure(
      new ProviderHttpClient(options({ retryBudgetMs: 300, backoff: { baseMs: 10, maxMs: 10 } })).postJson(
        { url: server.baseUrl, headers: {}, body: {} },
        identity,
      ),
    );
    expect(err).toMatchObject({ reason: 'server_error', status: 502 });
    expect(server.requests).toHaveLength(2);
  });

  it('never follows a redirect (it would carry the key elsewhere)', async () => {
    const elsewhere = await FakeProviderServer.start();
    try {
      elsewhere.answer({ status: 200, body: {} });
      server.answer({ status: 307, headers: { location: `${elsewhere.baseUrl}/steal` }, body: {} });
      const err = await failure(new ProviderHttpClient(options()).postJson({ url: server.baseUrl, headers: { 'x-key': 's3cret' }, body: {} }, identity));
      expect(err).toMatchObject({ reason: 'http_error', status: 307, retryable: false });
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('refuses an answer past the size limit, and a 404 without retrying', async () => {
    server.answer({ status: 200, raw: JSON.stringify({ pad: 'x'.repeat(5000) }) });
    expect(
      await failure(new ProviderHttpClient(options({ maxResponseBytes: 1000 })).postJson({ url: server.baseUrl, headers: {}, body: {} }, identity)),
    ).toMatchObject({ reason: 'bad_response' });

    server.answer({ status: 404, body: { error: { message: 'Resource not found' } } });
    expect(await failure(new ProviderHttpClient(options()).postJson({ url: server.baseUrl, headers: {}, body: {} }, identity))).toMatchObject({
      reason: 'http_error',
      status: 404,
      retryable: false,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('sends the JSON body with the given headers, and turns a throwing parser into bad_response', async () => {
    server.answer({ status: 200, body: { a: 1 } });
    const err = await failure(
      new ProviderHttpClient(options()).postJson({ url: `${server.baseUrl}/path?q=1`, headers: { 'x-key': 'k' }, body: { hello: 'world' } }, () => {
        throw new TypeError('cannot read properties of undefined');
      }),
    );
    expect(err).toMatchObject({ reason: 'bad_response', retryable: false });
    const [req] = server.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/path', json: { hello: 'world' } });
    expect(req.headers).toMatchObject({ 'x-key': 'k', 'content-type': 'application/json', accept: 'application/json' });
  });
});
