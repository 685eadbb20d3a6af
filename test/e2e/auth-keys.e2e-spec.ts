import { ApiClient, expectErrorBody, RunningService, startService } from '@cds/testing';

describe('authentication, scopes, keys and tenants', () => {
  let svc: RunningService;
  let admin: ApiClient;

  beforeAll(async () => {
    svc = await startService();
    admin = new ApiClient(svc.baseUrl, svc.adminKey);
  });
  afterAll(() => svc?.stop());

  it('answers 401 INVALID_API_KEY without a key, with an unknown key and with a malformed header', async () => {
    for (const client of [admin.withKey(null), admin.withKey('cds_not-a-real-key')]) {
      const r = await client.get('/v1/policies');
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('INVALID_API_KEY');
      expectErrorBody(r.body);
    }
    const r = await admin.withKey(null).get('/v1/policies', { authorization: `Basic ${svc.adminKey}` });
    expect(r.status).toBe(401);
  });

  it('creates a key shown once, lists it without the secret, and the key works for its scopes only', async () => {
    const created = await admin.post('/v1/keys', { name: 'checker', scopes: ['checks'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'checker', scopes: ['checks'], tenantId: 'default' });
    expect(typeof created.body.id).toBe('string');
    expect(created.body.key).toMatch(/^cds_/);

    const listed = await admin.get('/v1/keys');
    expect(listed.status).toBe(200);
    const mine = listed.body.keys.find((k: any) => k.id === created.body.id);
    expect(mine).toMatchObject({ name: 'checker', scopes: ['checks'], revokedAt: null });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);

    const checker = admin.withKey(created.body.key);
    expect((await checker.post('/v1/check', { content: 'hello there', policyId: 'default' })).status).toBe(200);
    const forbidden = await checker.get('/v1/decisions');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('INSUFFICIENT_SCOPE');
    expectErrorBody(forbidden.body);
    expect((await checker.post('/v1/keys', { name: 'x', scopes: ['checks'] })).status).toBe(403);
  });

  it('revokes a key: it answers 401 right after', async () => {
    const created = await admin.post('/v1/keys', { name: 'temp', scopes: ['policies'] });
    const temp = admin.withKey(created.body.key);
    expect((await temp.get('/v1/policies')).status).toBe(200);
    const revoked = await admin.delete(`/v1/keys/${created.body.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    expect((await temp.get('/v1/policies')).status).toBe(401);
    expect((await admin.delete('/v1/keys/00000000-0000-0000-0000-000000000000')).status).toBe(404);
  });

  it('a key revoked through one api replica is refused by every replica at once, and a new key works on every one', async () => {
    // distributed: each replica directly (no proxy between); embedded: the one process
    const replicas = svc.topology ? svc.topology.apis.map((a) => `http://127.0.0.1:${a.port}`) : [svc.baseUrl];
    for (let round = 0; round < 5; round++) {
      const [writer, ...others] = replicas.map((url) => new ApiClient(url, svc.adminKey));
      const created = await writer.post('/v1/keys', { name: `roaming-${round}`, scopes: ['policies'] });
      expect(created.status).toBe(201);
      // created on the first replica: the others know it from their very next request
      for (const r of [...others, writer]) expect((await r.withKey(created.body.key).get('/v1/policies')).status).toBe(200);
      const revoked = await writer.delete(`/v1/keys/${created.body.id}`);
      expect(revoked.status).toBe(200);
      for (const r of [...others, writer]) {
        const refused = await r.withKey(created.body.key).get('/v1/policies');
        expect(refused.status).toBe(401);
        expect(refused.body.code).toBe('INVALID_API_KEY');
      }
      replicas.push(replicas.shift()!);
    }
  });

  it('validates key requests with 422', async () => {
    for (const body of [
      { name: 'x', scopes: ['nope'] },
      { name: '', scopes: ['checks'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: 'checks' },
      { scopes: ['checks'] },
    ]) {
      const r = await admin.post('/v1/keys', body);
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('VALIDATION_ERROR');
    }
  });

  describe('tenants', () => {
    let a: ApiClient;
    let b: ApiClient;
    let aKeyManager: ApiClient;

    beforeAll(async () => {
      const all = ['checks', 'policies', 'decisions', 'keys'];
      a = admin.withKey((await admin.post('/v1/keys', { name: 'a', scopes: all, tenantId: 'tenant-a' })).body.key);
      b = admin.withKey((await admin.post('/v1/keys', { name: 'b', scopes: all, tenantId: 'tenant-b' })).body.key);
      aKeyManager = admin.withKey((await admin.post('/v1/keys', { name: 'a-keys', scopes: ['keys'], tenantId: 'tenant-a' })).body.key);
    });

    it("never shows one tenant's policies, decisions or keys to another (404, not 403)", async () => {
      const yaml = 'name: A only\ncategories:\n  hate: { threshold: 0.5, action: block }\n';
      expect((await a.post('/v1/policies', { policyId: 'a-policy', yamlContent: yaml })).status).toBe(201);
      const decision = await a.post('/v1/check', { content: 'good morning', policyId: 'a-policy' });
      expect(decision.status).toBe(200);

      expect((await b.get('/v1/policies/a-policy')).status).toBe(404);
      expect((await b.post('/v1/check', { content: 'x', policyId: 'a-policy' })).status).toBe(404);
      expect((await b.get(`/v1/decisions/${decision.body.decisionId}`)).status).toBe(404);
      expect((await b.get(`/v1/decisions/${decision.body.decisionId}/curl`)).status).toBe(404);
      expect((await b.post(`/v1/decisions/${decision.body.decisionId}/replay`, { policyId: 'default' })).status).toBe(404);
      expect((await b.get('/v1/decisions')).body.decisions).toEqual([]);
      expect((await b.get('/v1/policies')).body.policies.map((p: any) => p.policyId)).not.toContain('a-policy');
      expect((await a.get(`/v1/decisions/${decision.body.decisionId}`)).status).toBe(200);

      const aKeys = (await a.get('/v1/keys')).body.keys.map((k: any) => k.id);
      const bKeys = (await b.get('/v1/keys')).body.keys;
      expect(bKeys.some((k: any) => aKeys.includes(k.id))).toBe(false);
      expect((await b.delete(`/v1/keys/${aKeys[0]}`)).status).toBe(404);
      expect((await admin.get(`/v1/decisions/${decision.body.decisionId}`)).status).toBe(404);
    });

    it('a tenant key cannot mint keys for another tenant or with scopes it lacks', async () => {
      const other = await a.post('/v1/keys', { name: 'x', scopes: ['checks'], tenantId: 'tenant-b' });
      expect(other.status).toBe(403);
      expectErrorBody(other.body);
      const escalate = await aKeyManager.post('/v1/keys', { name: 'x', scopes: ['checks'] });
      expect(escalate.status).toBe(403);
      const same = await aKeyManager.post('/v1/keys', { name: 'x', scopes: ['keys'] });
      expect(same.status).toBe(201);
      expect(same.body.tenantId).toBe('tenant-a');
    });
  });

  it('answers unknown paths with 404 in the error body', async () => {
    const r = await admin.get('/v1/nothing-here');
    expect(r.status).toBe(404);
    expectErrorBody(r.body);
  });
});

describe('rate limits', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(() => svc?.stop());

  it('sends the headers on every answer and 429 with retryAfter past the limit', async () => {
    const client = new ApiClient(svc.baseUrl, svc.adminKey);
    const answers = [];
    // 24 calls against a limit of 5 a minute: at least one is refused even if a minute
    // boundary falls in between, also in distributed mode, where each of the two api
    // replicas behind the round-robin proxy counts its own 12 (with 12 calls, 6 a replica
    // split 3 + 3 by a boundary were all allowed).
    for (let i = 0; i < 24; i++) {
      const r = await client.get('/v1/policies');
      answers.push(r);
      expect(r.headers.get('x-ratelimit-limit')).toBe('5');
      expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
      expect(r.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    }
    const first429 = answers.findIndex((r) => r.status === 429);
    expect(first429).toBeGreaterThanOrEqual(5);
    expect(answers.slice(0, first429).every((r) => r.status === 200)).toBe(true);
    const refused = answers[first429];
    expect(typeof refused.body.error).toBe('string');
    expect(refused.body.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.body.retryAfter).toBeLessThanOrEqual(60);
    expect(Number(refused.headers.get('retry-after'))).toBe(refused.body.retryAfter);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});
