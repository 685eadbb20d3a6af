import { execFileSync } from 'node:child_process';
import { ApiClient, expectErrorBody, RunningService, startService } from '@cds/testing';

const BLOCK_ALL = 'name: Block all\ncategories:\n  hate: { threshold: 0, action: block }\n';
const FLAG_ALL = 'name: Flag all\ncategories:\n  violence: { threshold: 0, action: flag }\n';

describe('decisions', () => {
  let svc: RunningService;
  let api: ApiClient;
  const made: any[] = [];

  beforeAll(async () => {
    svc = await startService();
    api = new ApiClient(svc.baseUrl, svc.adminKey);
    await api.post('/v1/policies', { policyId: 'block-all', yamlContent: BLOCK_ALL });
    await api.post('/v1/policies', { policyId: 'flag-all', yamlContent: FLAG_ALL });
    for (let i = 0; i < 6; i++) {
      const policyId = i % 2 === 0 ? 'block-all' : 'flag-all';
      const r = await api.post('/v1/check', { content: `message number ${i}`, policyId, metadata: { userId: `u${i}` } });
      expect(r.status).toBe(200);
      made.push({ ...r.body, policyId });
    }
  });
  afterAll(() => svc?.stop());

  it('is readable as soon as the check answered, with the Stored decision fields', async () => {
    const r = await api.post('/v1/check', { content: 'read me right away', policyId: 'default', language: 'fr', metadata: { userId: 'z' } });
    const got = await api.get(`/v1/decisions/${r.body.decisionId}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      decisionId: r.body.decisionId,
      content: 'read me right away',
      safe: r.body.safe,
      action: r.body.action,
      policyId: 'default',
      language: 'fr',
      metadata: { userId: 'z' },
      categories: r.body.categories,
    });
    expect(new Date(got.body.timestamp).toISOString()).toBe(got.body.timestamp);
    expect(got.body.timestamp.endsWith('Z')).toBe(true);
  });

  it('answers 404 for an unknown id', async () => {
    const r = await api.get('/v1/decisions/00000000-0000-0000-0000-000000000000');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('DECISION_NOT_FOUND');
    expectErrorBody(r.body);
  });

  it('lists newest first with limit and offset', async () => {
    const all = (await api.get('/v1/decisions?limit=1000')).body.decisions;
    const ids = all.map((d: any) => d.decisionId);
    const mine = made.map((m) => m.decisionId).reverse();
    expect(ids.filter((id: string) => mine.includes(id))).toEqual(mine);
    for (let i = 1; i < all.length; i++) expect(all[i - 1].timestamp >= all[i].timestamp).toBe(true);

    const page1 = (await api.get('/v1/decisions?limit=2&offset=0')).body.decisions;
    const page2 = (await api.get('/v1/decisions?limit=2&offset=2')).body.decisions;
    expect(page1.map((d: any) => d.decisionId)).toEqual(ids.slice(0, 2));
    expect(page2.map((d: any) => d.decisionId)).toEqual(ids.slice(2, 4));
  });

  it('filters by action, policyId and time range', async () => {
    const blocked = (await api.get('/v1/decisions?action=block&limit=1000')).body.decisions;
    expect(blocked.length).toBeGreaterThanOrEqual(3);
    expect(blocked.every((d: any) => d.action === 'block')).toBe(true);
    const flagAll = (await api.get('/v1/decisions?policyId=flag-all&limit=1000')).body.decisions;
    expect(flagAll.map((d: any) => d.decisionId).sort()).toEqual(
      made
        .filter((m) => m.policyId === 'flag-all')
        .map((m) => m.decisionId)
        .sort(),
    );

    const all = (await api.get('/v1/decisions?limit=1000')).body.decisions;
    const oldest = all[all.length - 1].timestamp;
    const newest = all[0].timestamp;
    expect((await api.get(`/v1/decisions?from=${encodeURIComponent(newest)}&limit=1000`)).body.decisions.every((d: any) => d.timestamp >= newest)).toBe(true);
    expect((await api.get(`/v1/decisions?to=${encodeURIComponent(oldest)}&limit=1000`)).body.decisions.every((d: any) => d.timestamp <= oldest)).toBe(true);
    expect((await api.get('/v1/decisions?from=2999-01-01T00:00:00Z')).body.decisions).toEqual([]);
  });

  it('filters the audit history by metadata.userId, triggered category and words of the content', async () => {
    const ids = async (q: string) => (await api.get(`/v1/decisions?limit=1000&${q}`)).body.decisions.map((d: any) => d.decisionId);
    const madeIds = made.map((m) => m.decisionId);
    expect(await ids('userId=u3')).toEqual([made[3].decisionId]);
    const violent = await ids('category=violence'); // flag-all triggers violence, block-all hate
    expect(violent.filter((id: string) => madeIds.includes(id)).sort()).toEqual(
      made
        .filter((m) => m.policyId === 'flag-all')
        .map((m) => m.decisionId)
        .sort(),
    );
    expect(await ids(`q=${encodeURIComponent('Message NUMBER 4')}`)).toEqual([made[4].decisionId]);
    expect(await ids('q=number&category=hate&userId=u2')).toEqual([made[2].decisionId]);
    expect(await ids('q=number&category=violence&userId=u2')).toEqual([]);
    expect(await ids('userId=nobody')).toEqual([]);
  });

  it('answers 422 for invalid list parameters', async () => {
    const audit = ['userId=', 'category=Not%20A%20Category', 'category=', 'q=', `q=${'x'.repeat(501)}`, 'q=a&q=b'];
    for (const q of [
      'limit=abc',
      'limit=0',
      'limit=5000',
      'offset=-1',
      'action=explode',
      'from=yesterday',
      'from=2030-01-01T00:00:00Z&to=2020-01-01T00:00:00Z',
      ...audit,
    ]) {
      const r = await api.get(`/v1/decisions?${q}`);
      expect(r.status).toBe(422);
      expectErrorBody(r.body);
    }
  });

  it('replays a decision under another policy from its stored signals', async () => {
    const original = made[0]; // block-all
    const r = await api.post(`/v1/decisions/${original.decisionId}/replay`, { policyId: 'flag-all' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      decisionId: original.decisionId,
      action: 'flag',
      flagged: true,
      safe: false,
      provider: 'local',
      cost: 0,
      policyId: 'flag-all',
    });
    expect(r.body.categories).toEqual([expect.objectContaining({ category: 'violence', threshold: 0, triggered: true })]);
    expect(r.body.original).toMatchObject({ policyId: 'block-all', action: 'block' });

    // The same signals give the same scores: replaying under the original policy
    // reproduces the original decision exactly.
    const same = await api.post(`/v1/decisions/${original.decisionId}/replay`, { policyId: 'block-all' });
    expect(same.body.categories).toEqual(original.categories);
    expect(same.body.action).toBe(original.action);

    expect((await api.post('/v1/decisions/00000000-0000-0000-0000-000000000000/replay', { policyId: 'default' })).status).toBe(404);
    expect((await api.post(`/v1/decisions/${original.decisionId}/replay`, { policyId: 'missing' })).status).toBe(404);
    expect((await api.post(`/v1/decisions/${original.decisionId}/replay`, {})).status).toBe(422);
  });

  it('gives a curl command that reproduces the check, safe whatever the content holds', async () => {
    const nasty = `it's "quoted" $(touch /tmp/cds-pwned) \`touch /tmp/cds-pwned\` $HOME \\ back\nnew line é ü 日本 🙂 '; rm -rf / #`;
    const r = await api.post('/v1/check', { content: nasty, policyId: 'flag-all', language: 'de', metadata: { userId: "o'brien" }, requestId: 'curl-1' });
    const curl = await api.get(`/v1/decisions/${r.body.decisionId}/curl`);
    expect(curl.status).toBe(200);
    const cmd: string = curl.body.curl;
    expect(cmd).toContain('$API_KEY');
    expect(cmd).not.toContain(svc.adminKey);
    expect(cmd).toMatch(/^[\x20-\x7e]+$/); // one line of printable ASCII
    expect(cmd).toContain(`http://127.0.0.1:${svc.port}/v1/check`);

    const out = execFileSync('bash', ['-c', cmd], { env: { ...process.env, API_KEY: svc.adminKey }, encoding: 'utf8' });
    const reproduced = JSON.parse(out);
    expect(reproduced.decisionId).not.toBe(r.body.decisionId);
    expect(reproduced.categories).toEqual(r.body.categories);
    expect(reproduced.action).toBe(r.body.action);
    const stored = await api.get(`/v1/decisions/${reproduced.decisionId}`);
    expect(stored.body).toMatchObject({ content: nasty, language: 'de', metadata: { userId: "o'brien" }, policyId: 'flag-all' });
    expect(require('node:fs').existsSync('/tmp/cds-pwned')).toBe(false);
  });

  it('uses PUBLIC_BASE_URL when set', async () => {
    const other = await startService({ env: { PUBLIC_BASE_URL: 'https://moderation.example.com/' } });
    try {
      const client = new ApiClient(other.baseUrl, other.adminKey);
      const r = await client.post('/v1/check', { content: 'x', policyId: 'default' });
      const curl = await client.get(`/v1/decisions/${r.body.decisionId}/curl`);
      expect(curl.body.curl).toContain("'https://moderation.example.com/v1/check'");
    } finally {
      await other.stop();
    }
  });
});
