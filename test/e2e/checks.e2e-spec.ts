import { ApiClient, expectErrorBody, RunningService, startService } from '@cds/testing';

const ALWAYS = 'name: Always\ncategories:\n  violence: { threshold: 0, action: flag }\n  hate: { threshold: 0, action: block }\n';
const NEVER = 'name: Never\nversion: "1"\nrules:\n  - { category: hate, threshold: 1, provider: local, action: block }\n';

describe('POST /v1/check and /v1/check/dry-run', () => {
  let svc: RunningService;
  let api: ApiClient;

  beforeAll(async () => {
    svc = await startService({ env: { MAX_BODY_BYTES: '65536', MAX_TEXT_LENGTH: '2000', MAX_IMAGE_BYTES: '30000' } });
    api = new ApiClient(svc.baseUrl, svc.adminKey);
    expect((await api.post('/v1/policies', { policyId: 'always', yamlContent: ALWAYS })).status).toBe(201);
    expect((await api.post('/v1/policies', { policyId: 'never', yamlContent: NEVER })).status).toBe(201);
  });
  afterAll(() => svc?.stop());

  it('returns a Check decision with every field of the spec', async () => {
    const r = await api.post('/v1/check', { content: 'Have a lovely day!', policyId: 'default', metadata: { userId: 'u1' } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['action', 'categories', 'cost', 'decisionId', 'flagged', 'latency', 'provider', 'safe'].sort());
    expect(r.body).toMatchObject({ provider: 'local', cost: 0 });
    expect(typeof r.body.latency).toBe('number');
    expect(r.body.categories.map((c: any) => c.category)).toEqual(['sexual', 'hate', 'harassment', 'violence', 'self-harm']);
    for (const c of r.body.categories) {
      expect(c.score).toBeGreaterThanOrEqual(0);
      expect(c.score).toBeLessThanOrEqual(1);
      expect(c.triggered).toBe(c.score >= c.threshold);
    }
    expect(r.body.flagged).toBe(r.body.categories.some((c: any) => c.triggered));
    expect(r.body.safe).toBe(!r.body.flagged);
  });

  it('applies the named policy: most severe triggered action wins', async () => {
    const always = await api.post('/v1/check', { content: 'anything at all', policyId: 'always' });
    expect(always.body).toMatchObject({ action: 'block', flagged: true, safe: false });
    expect(always.body.categories).toEqual([
      expect.objectContaining({ category: 'violence', threshold: 0, triggered: true }),
      expect.objectContaining({ category: 'hate', threshold: 0, triggered: true }),
    ]);
    const never = await api.post('/v1/check', { content: 'anything at all', policyId: 'never', language: 'de' });
    expect(never.body).toMatchObject({ action: 'allow', flagged: false, safe: true });
  });

  it('accepts each of the 17 languages and refuses others with 422', async () => {
    for (const language of ['en', 'es', 'fr', 'de', 'pt', 'it', 'ru', 'tr', 'ar', 'hi', 'id', 'ja', 'ko', 'pl', 'nl', 'sv', 'cs']) {
      const r = await api.post('/v1/check', { content: 'text', policyId: 'default', language });
      expect(r.status).toBe(200);
    }
    const r = await api.post('/v1/check', { content: 'text', policyId: 'default', language: 'xx' });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('UNSUPPORTED_LANGUAGE');
  });

  it('refuses video content on /v1/check with a clear 422 (videos go to /v1/video/check or /upload), and an image that is not one', async () => {
    const video = await api.post('/v1/check', { content: 'aGVsbG8=', policyId: 'default', contentType: 'video' });
    expect(video.status).toBe(422);
    expect(video.body.code).toBe('UNSUPPORTED_CONTENT_TYPE');
    expectErrorBody(video.body);
    const image = await api.post('/v1/check', { content: 'aGVsbG8=', policyId: 'default', contentType: 'image' });
    expect(image.status).toBe(422);
    expect(image.body.code).toBe('INVALID_IMAGE');
    expectErrorBody(image.body);
    expect((await api.post('/v1/check', { content: 'x', policyId: 'default', contentType: 'audio' })).status).toBe(422);
  });

  it('returns the cached decision for a repeated requestId or Idempotency-Key, without a new decision', async () => {
    const first = await api.post('/v1/check', { content: 'idempotent text', policyId: 'default', requestId: 'req-1' });
    const again = await api.post('/v1/check', { content: 'idempotent text', policyId: 'default', requestId: 'req-1' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    const concurrent = await Promise.all(
      Array.from({ length: 10 }, () => api.post('/v1/check', { content: 'c', policyId: 'default' }, { 'Idempotency-Key': 'idem-42' })),
    );
    expect(new Set(concurrent.map((r) => r.body.decisionId)).size).toBe(1);

    const listed = await api.get('/v1/decisions?limit=1000');
    const ids = listed.body.decisions.map((d: any) => d.decisionId);
    expect(ids.filter((id: string) => id === first.body.decisionId)).toHaveLength(1);
    expect(ids.filter((id: string) => id === concurrent[0].body.decisionId)).toHaveLength(1);

    const other = await api.post('/v1/check', { content: 'idempotent text', policyId: 'default', requestId: 'req-2' });
    expect(other.body.decisionId).not.toBe(first.body.decisionId);
  });

  it('answers 400 for bodies that are not JSON objects', async () => {
    const cases: [string, string][] = [
      ['{"content": "x", ', 'INVALID_JSON'],
      ['not json', 'INVALID_JSON'],
      ['[1,2]', 'INVALID_BODY'],
      ['"a string"', 'INVALID_BODY'],
      ['null', 'INVALID_BODY'],
    ];
    for (const [raw, code] of cases) {
      // Sent as application/json (and once as text/plain): the same answer either way.
      for (const type of ['application/json', 'text/plain']) {
        const r = await api.request('POST', '/v1/check', raw, { 'content-type': type });
        expect({ raw, type, status: r.status, code: r.body?.code }).toEqual({ raw, type, status: 400, code });
        expectErrorBody(r.body);
      }
    }
    // A prototype key is dropped, not an error.
    const proto = await api.post('/v1/check', '{"content":"x","policyId":"default","__proto__":{"polluted":1}}');
    expect(proto.status).toBe(200);
    const empty = await api.request('POST', '/v1/check', undefined, { 'content-type': 'application/json' });
    expect(empty.status).toBe(400);
  });

  it('answers a 4xx, never a 500, to bodies deep, wide or odd (on every endpoint)', async () => {
    const nest = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    const deep = await api.post('/v1/check', `{"content":"x","policyId":"default","metadata":${nest(3000)}}`);
    expect({ status: deep.status, code: deep.body?.code }).toEqual({ status: 400, code: 'INVALID_BODY' });
    const deepWithProto = await api.post('/v1/check', `{"__proto__":{},"content":"x","policyId":"default","metadata":${nest(5000)}}`);
    expect({ status: deepWithProto.status, code: deepWithProto.body?.code }).toEqual({ status: 400, code: 'INVALID_BODY' });
    const deepArray = await api.post(
      '/v1/webhooks',
      `{"url":"https://x.example/h","events":["decision.created"],"description":${'['.repeat(3000)}${']'.repeat(3000)}}`,
    );
    expect({ status: deepArray.status, code: deepArray.body?.code }).toEqual({ status: 400, code: 'INVALID_BODY' });
    const cases: [string, string][] = [
      [`{"content":"x","policyId":"default","metadata":${nest(10)}}`, 'deeper than 8'],
      [`{"content":"x","policyId":"default","metadata":{${Array.from({ length: 300 }, (_, i) => `"k${i}":${i}`).join(',')}}}`, 'more than 256 keys'],
      ['{"content":"x","policyId":"default","metadata":{"n":1e400}}', 'finite'],
      [`{"content":"x","policyId":"default","metadata":{"blob":"${'x'.repeat(20_000)}"}}`, 'larger than'],
    ];
    for (const [body, why] of cases) {
      const r = await api.post('/v1/check', body);
      expect({ why, status: r.status, code: r.body?.code, details: r.body?.details }).toEqual({
        why,
        status: 422,
        code: 'VALIDATION_ERROR',
        details: expect.stringContaining(why),
      });
    }
    for (const path of ['/v1/check/multimodal', '/v1/batch/check']) {
      const body =
        path === '/v1/batch/check'
          ? `{"policyId":"default","items":[{"id":"a","content":"x","metadata":${nest(10)}}]}`
          : `{"text":"x","policyId":"default","metadata":${nest(10)}}`;
      expect((await api.post(path, body)).status).toBe(422);
    }
    // Odd unicode is text like any other: lone surrogates, a NUL key.
    const odd = await api.post('/v1/check', '{"content":"x\\ud800 y","policyId":"default","metadata":{"\\u0000":"\\udfff"}}');
    expect(odd.status).toBe(200);
  });

  it('answers 422 naming the field for wrong types and missing fields', async () => {
    const cases: [unknown, string][] = [
      [{ policyId: 'default' }, 'content'],
      [{ content: 5, policyId: 'default' }, 'content'],
      [{ content: 'x' }, 'policyId'],
      [{ content: 'x', policyId: 'default', metadata: 'str' }, 'metadata'],
      [{ content: 'x', policyId: 'default', requestId: 7 }, 'requestId'],
      [{ content: 'x', policyId: 'default', language: ['en'] }, 'language'],
      [{ content: 'x', policyId: '../etc' }, 'policyId'],
    ];
    for (const [body, field] of cases) {
      const r = await api.post('/v1/check', body);
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('VALIDATION_ERROR');
      expect(r.body.details).toContain(field);
    }
  });

  it('answers 413 for an oversized body and 422 for text past the length limit', async () => {
    // POST /v1/check takes one base64 image of MAX_IMAGE_BYTES and 1 MiB of JSON around it;
    // other endpoints keep MAX_BODY_BYTES.
    const big = await api.post('/v1/check', { content: 'a'.repeat(Math.ceil(30_000 / 3) * 4 + 1024 * 1024), policyId: 'default' });
    expect(big.status).toBe(413);
    expectErrorBody(big.body);
    const dryRun = await api.post('/v1/check/dry-run', { policyId: 'default', policy: 'a'.repeat(70_000) });
    expect(dryRun.status).toBe(413);
    const long = await api.post('/v1/check', { content: 'a'.repeat(2001), policyId: 'default' });
    expect(long.status).toBe(422);
    expect(long.body.code).toBe('CONTENT_TOO_LONG');
  });

  it('answers 404 POLICY_NOT_FOUND for an unknown policy', async () => {
    const r = await api.post('/v1/check', { content: 'x', policyId: 'no-such-policy' });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('POLICY_NOT_FOUND');
  });

  it('never answers 500 on hostile input', async () => {
    const hostile = [
      { content: '\u0000\u0001\uFFFF\uD800', policyId: 'default' },
      { content: '🙂'.repeat(500), policyId: 'default' },
      { content: 'x', policyId: 'default', metadata: { __proto__: { polluted: true }, constructor: { prototype: { x: 1 } } } },
      { content: 'x', policyId: 'default', metadata: JSON.parse('{"a":' + '['.repeat(500) + ']'.repeat(500) + '}') },
    ];
    for (const body of hostile) {
      const r = await api.post('/v1/check', body);
      expect(r.status).toBeLessThan(500);
    }
    const raw = await api.post('/v1/check', '{"content":"x","policyId":"default","__proto__":{"admin":true}}');
    expect(raw.status).toBeLessThan(500);
  });

  describe('dry-run', () => {
    it('evaluates a stored policy over mock scores: threshold is inclusive', async () => {
      const r = await api.post('/v1/check/dry-run', { policyId: 'default', mockScores: { hate: 0.7, violence: 0.69 } });
      expect(r.status).toBe(200);
      expect(r.body.action).toBe('block');
      const hate = r.body.categories.find((c: any) => c.category === 'hate');
      const violence = r.body.categories.find((c: any) => c.category === 'violence');
      expect(hate).toMatchObject({ score: 0.7, threshold: 0.7, triggered: true });
      expect(violence).toMatchObject({ triggered: false });
    });

    it('replays named signals (folded into categories), used instead of mockScores', async () => {
      const r = await api.post('/v1/check/dry-run', {
        policyId: 'default',
        mockScores: { hate: 0.99 },
        mockSignals: { self_harm: 0.9, some_extra_signal: 0.4 },
      });
      expect(r.status).toBe(200);
      expect(r.body.categories.find((c: any) => c.category === 'self-harm')).toMatchObject({ score: 0.9, triggered: true });
      expect(r.body.categories.find((c: any) => c.category === 'hate')).toMatchObject({ score: 0, triggered: false });
      expect(r.body.action).toBe('flag');
    });

    it('evaluates an unsaved policy, ignoring the stored policyId', async () => {
      const policy = 'name: Tmp\ncategories:\n  harassment: { threshold: 0.2, action: warn }\n';
      const r = await api.post('/v1/check/dry-run', { policyId: 'always', policy, mockScores: { harassment: 0.3, hate: 1 } });
      expect(r.status).toBe(200);
      expect(r.body.action).toBe('warn');
      expect(r.body.categories).toEqual([{ category: 'harassment', score: 0.3, threshold: 0.2, triggered: true }]);
    });

    it('records nothing', async () => {
      const before = (await api.get('/v1/decisions?limit=1000')).body.decisions.length;
      await api.post('/v1/check/dry-run', { policyId: 'default', mockScores: { hate: 1 } });
      expect((await api.get('/v1/decisions?limit=1000')).body.decisions.length).toBe(before);
    });

    it('answers 422 for invalid scores or an invalid unsaved policy, 404 for an unknown policy', async () => {
      expect((await api.post('/v1/check/dry-run', { policyId: 'default', mockScores: { hate: 2 } })).status).toBe(422);
      expect((await api.post('/v1/check/dry-run', { policyId: 'default', mockScores: { hate: 'high' } })).status).toBe(422);
      expect((await api.post('/v1/check/dry-run', { policyId: 'default', mockSignals: [1] })).status).toBe(422);
      const bad = await api.post('/v1/check/dry-run', { policy: 'name: x\ncategories:\n  hate: { threshold: 5, action: block }\n' });
      expect(bad.status).toBe(422);
      expect(bad.body.details + bad.body.error).toMatch(/line 3/);
      expect((await api.post('/v1/check/dry-run', { policyId: 'nope', mockScores: {} })).status).toBe(404);
    });
  });
});
