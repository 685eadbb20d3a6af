import { CdsClient, CdsClientOptions } from './cds.client';
import { CdsError } from './cds.error';
import { fakeClock, json, networkError, scriptedFetch } from './fetch.fixtures';

const decision = { safe: true, flagged: false, action: 'allow', categories: [], decisionId: 'd-1', provider: 'local', latency: 3, cost: 0 };
const unavailable = (code = 'EVENT_LOG_UNAVAILABLE') => json(503, { error: 'Unavailable', code, details: 'x' });

function client(fetchFn: typeof fetch, extra: Partial<CdsClientOptions> = {}) {
  const clock = fakeClock();
  const c = new CdsClient({ baseUrl: 'http://cds.test/', apiKey: 'key-1', fetch: fetchFn, clock, random: () => 0.5, baseDelayMs: 100, ...extra });
  return { c, clock };
}

async function failure(p: Promise<unknown>): Promise<CdsError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof CdsError) return err;
    throw err;
  }
  throw new Error('expected a CdsError');
}

describe('CdsClient retries', () => {
  it('retries 5xx and network failures with exponential backoff and full jitter, then answers', async () => {
    const f = scriptedFetch(unavailable('EVENT_LOG_UNCERTAIN'), networkError('ECONNRESET'), json(502, {}), json(200, decision));
    const { c, clock } = client(f.fetch);
    await expect(c.check({ content: 'hi', policyId: 'default' })).resolves.toEqual(decision);
    expect(f.requests).toHaveLength(4);
    // random() = 0.5 of a ceiling of 100, 200, 400 ms
    expect(clock.sleeps).toEqual([50, 100, 200]);
  });

  it('gives up after `retries` retries with the last error', async () => {
    const f = scriptedFetch(
      json(500, { code: 'INTERNAL_ERROR', error: 'e', details: '1' }),
      json(500, {}),
      json(503, {}),
      json(500, { code: 'INTERNAL_ERROR', error: 'e', details: 'last' }),
    );
    const { c, clock } = client(f.fetch, { retries: 3 });
    const e = await failure(c.getPolicy('p'));
    expect(e).toMatchObject({ status: 500, code: 'INTERNAL_ERROR', details: 'last' });
    expect(f.requests).toHaveLength(4);
    expect(clock.sleeps).toHaveLength(3);
  });

  it('honours Retry-After (seconds) on a 429 instead of the backoff', async () => {
    const limited = json(429, { error: 'Rate limit exceeded', code: 'RATE_LIMITED', details: 'retry after 2 s', retryAfter: 2 }, { 'retry-after': '2' });
    const f = scriptedFetch(limited, json(200, { policies: [] }));
    const { c, clock } = client(f.fetch);
    await expect(c.listPolicies()).resolves.toEqual({ policies: [] });
    expect(clock.sleeps).toEqual([2000]);
  });

  it('hands a 429 to the caller when Retry-After is longer than maxRetryAfterMs', async () => {
    const f = scriptedFetch(json(429, { error: 'Rate limit exceeded', code: 'RATE_LIMITED', details: '', retryAfter: 50 }, { 'retry-after': '50' }));
    const { c, clock } = client(f.fetch, { maxRetryAfterMs: 10_000 });
    expect(await failure(c.listPolicies())).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 50 });
    expect(clock.sleeps).toEqual([]);
  });

  it('never retries another 4xx', async () => {
    for (const status of [400, 401, 403, 404, 409, 413, 422]) {
      const f = scriptedFetch(json(status, { error: 'no', code: `C${status}`, details: '' }));
      const { c } = client(f.fetch);
      expect(await failure(c.check({ content: 'x', policyId: 'p' }))).toMatchObject({ status, code: `C${status}` });
      expect(f.requests).toHaveLength(1);
    }
  });

  it('retries nothing with retries: 0, and a call can override the client', async () => {
    const f = scriptedFetch(json(503, {}), json(503, {}), json(200, { webhooks: [] }));
    const { c } = client(f.fetch, { retries: 0 });
    expect(await failure(c.listWebhooks())).toMatchObject({ status: 503 });
    await expect(c.listWebhooks({ retries: 1 })).resolves.toEqual({ webhooks: [] });
  });

  it('retries a write it cannot deduplicate only when the service certainly did nothing', async () => {
    const created = { id: 'w1', secret: 'whsec_x' };
    const ok = scriptedFetch(json(429, { retryAfter: 1 }), unavailable(), networkError('ECONNREFUSED'), json(201, created));
    await expect(client(ok.fetch).c.createWebhook({ url: 'http://x', events: ['decision.created'] })).resolves.toEqual(created);
    expect(ok.requests).toHaveLength(4);

    for (const answer of [json(500, {}), unavailable('EVENT_LOG_UNCERTAIN'), networkError('ECONNRESET')]) {
      const f = scriptedFetch(answer, json(201, created));
      await expect(client(f.fetch).c.createWebhook({ url: 'http://x', events: ['decision.created'] })).rejects.toBeInstanceOf(CdsError);
      expect(f.requests).toHaveLength(1);
    }
  });

  it('reports a request that got no answer as status 0 NETWORK_ERROR, with the cause', async () => {
    const f = scriptedFetch(networkError('ECONNREFUSED'));
    const e = await failure(client(f.fetch, { retries: 0 }).c.getDecision('d'));
    expect(e).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    expect(e.details).toBe('connect ECONNREFUSED 127.0.0.1:1');
    expect((e.cause as Error).message).toBe('fetch failed');
  });

  it('times an attempt out (TIMEOUT) and retries it', async () => {
    const hang = (_req: unknown, signal?: AbortSignal) =>
      new Promise<Response>((_resolve, reject) => signal!.addEventListener('abort', () => reject(signal!.reason)));
    const f = scriptedFetch(hang, json(200, { keys: [] }));
    const { c } = client(f.fetch, { timeoutMs: 20 });
    await expect(c.listKeys()).resolves.toEqual({ keys: [] });
    const g = scriptedFetch(hang);
    expect(await failure(client(g.fetch, { timeoutMs: 20, retries: 0 }).c.listKeys())).toMatchObject({ status: 0, code: 'TIMEOUT' });
  });

  it("stops at the caller's abort, also while waiting to retry", async () => {
    const ac = new AbortController();
    const f = scriptedFetch(() => {
      ac.abort(new Error('stop'));
      return json(503, {});
    });
    const { c } = client(f.fetch);
    await expect(c.listPolicies({ signal: ac.signal })).rejects.toThrow('stop');
    expect(f.requests).toHaveLength(1);
  });
});

describe('CdsClient idempotency', () => {
  const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('sends one random Idempotency-Key per check, the same on every retry of it', async () => {
    const f = scriptedFetch(networkError('ECONNRESET'), json(500, {}), json(200, decision), json(200, decision));
    const { c } = client(f.fetch);
    await c.check({ content: 'hi', policyId: 'default' });
    const keys = f.requests.slice(0, 3).map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(KEY);
    expect(new Set(keys).size).toBe(1);
    await c.check({ content: 'hi', policyId: 'default' });
    expect(f.requests[3].headers['idempotency-key']).toMatch(KEY);
    expect(f.requests[3].headers['idempotency-key']).not.toBe(keys[0]);
  });

  it("leaves the key to the body's requestId, or uses the caller's key", async () => {
    const f = scriptedFetch(json(200, decision), json(503, {}), json(200, decision), json(200, {}));
    const { c } = client(f.fetch);
    await c.check({ content: 'hi', policyId: 'default', requestId: 'r-1' });
    expect(f.requests[0].headers).not.toHaveProperty('idempotency-key');
    expect(f.requests[0].body).toMatchObject({ requestId: 'r-1' });
    await c.checkMultimodal({ text: 'hi', policyId: 'default' }, { idempotencyKey: 'mine' });
    expect(f.requests.slice(1, 3).map((r) => r.headers['idempotency-key'])).toEqual(['mine', 'mine']);
    await c.batchCheck({ policyId: 'default', items: [{ id: 'a', content: 'x' }] });
    expect(f.requests[3].headers['idempotency-key']).toMatch(KEY);
  });

  it('sends no key on calls that are not checks', async () => {
    const f = scriptedFetch(json(200, { dryRun: true }));
    await client(f.fetch).c.dryRun({ policyId: 'default', mockScores: { hate: 0.9 } });
    expect(f.requests[0].headers).not.toHaveProperty('idempotency-key');
  });
});

describe('CdsClient requests', () => {
  it('sends the key, JSON and the path; encodes ids; drops undefined query values', async () => {
    const f = scriptedFetch(json(200, { decisions: [] }), json(200, {}), json(200, {}));
    const { c } = client(f.fetch);
    await c.listDecisions({ limit: 5, action: 'block', policyId: undefined, from: '2025-01-01T00:00:00.000Z' });
    expect(f.requests[0]).toMatchObject({ method: 'GET', url: 'http://cds.test/v1/decisions?limit=5&action=block&from=2025-01-01T00%3A00%3A00.000Z' });
    expect(f.requests[0].headers).toMatchObject({ authorization: 'Bearer key-1', accept: 'application/json' });
    await c.replayDecision('a/b?c', 'strict');
    expect(f.requests[1]).toMatchObject({ method: 'POST', url: 'http://cds.test/v1/decisions/a%2Fb%3Fc/replay', body: { policyId: 'strict' } });
    expect(f.requests[1].headers['content-type']).toBe('application/json');
    await c.guardrailMetrics('proj-1');
    expect(f.requests[2].url).toBe('http://cds.test/v1/agent/guardrails/metrics?projectId=proj-1');
  });

  it('answers media as bytes with their content type', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    const f = scriptedFetch(new Response(png, { status: 200, headers: { 'content-type': 'image/png' } }));
    const media = await client(f.fetch).c.getMedia(`media:sha256:${'ab'.repeat(32)}`);
    expect(f.requests[0].url).toBe(`http://cds.test/v1/media/sha256/${'ab'.repeat(32)}`);
    expect(media.contentType).toBe('image/png');
    expect(media.bytes.equals(png)).toBe(true);
  });

  it('uploads a video as multipart: the fields, then the file', async () => {
    const f = scriptedFetch(json(202, { decisionId: 'v1', status: 'processing' }));
    await client(f.fetch).c.videoUpload(Buffer.from('not really a video'), {
      policyId: 'default',
      maxDurationSeconds: 30,
      metadata: { userId: 'u1' },
      extractionStrategy: { maxFrames: 4 },
      filename: 'clip.mp4',
    });
    const form = f.requests[0].body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect([...form.keys()]).toEqual(['policyId', 'maxDurationSeconds', 'metadata', 'extractionStrategy', 'video']);
    expect(form.get('metadata')).toBe('{"userId":"u1"}');
    const file = form.get('video') as File;
    expect(file.name).toBe('clip.mp4');
    expect(Buffer.from(await file.arrayBuffer()).toString()).toBe('not really a video');
    expect(f.requests[0].headers).not.toHaveProperty('content-type');
  });

  it('refuses to be built without an address or a key', () => {
    expect(() => new CdsClient({ baseUrl: '', apiKey: 'k' })).toThrow('baseUrl');
    expect(() => new CdsClient({ baseUrl: 'http://x', apiKey: '' })).toThrow('apiKey');
    expect(() => new CdsClient({ baseUrl: 'http://x', apiKey: 'k', retries: -1 })).toThrow('retries');
  });
});
