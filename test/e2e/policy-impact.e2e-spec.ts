import { ApiClient, expectErrorBody, RunningService, startService } from '@cds/testing';

const BASE = 'name: base\ncategories:\n  hate: { threshold: 1, action: block }\n  violence: { threshold: 1, action: flag }\n';
/** Everything blocks on hate: every decision made under BASE (all allow) would change. */
const STRICT = 'name: strict\nversion: "2"\ncategories:\n  hate: { threshold: 0, action: block }\n  violence: { threshold: 1, action: flag }\n';

describe('POST /v1/policies/{policyId}/impact', () => {
  let svc: RunningService;
  let api: ApiClient;
  const ids: string[] = [];

  beforeAll(async () => {
    svc = await startService();
    api = new ApiClient(svc.baseUrl, svc.adminKey);
    expect((await api.post('/v1/policies', { policyId: 'base', yamlContent: BASE })).status).toBe(201);
    for (let i = 0; i < 5; i++) {
      const r = await api.post('/v1/check', { content: `message number ${i}`, policyId: 'base' });
      expect(r.body.action).toBe('allow');
      ids.unshift(r.body.decisionId);
    }
    // A decision under another policy is not in the report.
    await api.post('/v1/check', { content: 'other', policyId: 'default' });
  });
  afterAll(() => svc?.stop());

  it('replays the decisions made under the policy and reports each action change, recording nothing', async () => {
    const before = (await api.get('/v1/decisions?limit=1000')).body.decisions.length;
    const r = await api.post('/v1/policies/base/impact', { yamlContent: STRICT });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      policyId: 'base',
      candidate: { name: 'strict', version: '2' },
      evaluated: 5,
      unchanged: 0,
      changed: 5,
      window: { from: null, to: null, limit: 5000, cut: false },
      actions: { before: { allow: 5, warn: 0, flag: 0, block: 0 }, after: { allow: 0, warn: 0, flag: 0, block: 5 } },
      changes: [{ from: 'allow', to: 'block', count: 5, categories: [{ category: 'hate', count: 5 }], sampleDecisionIds: ids }],
    });
    expect(typeof r.body.replayMs).toBe('number');
    const same = await api.post('/v1/policies/base/impact', { yamlContent: BASE });
    expect(same.body).toMatchObject({ evaluated: 5, unchanged: 5, changed: 0, changes: [] });
    expect((await api.get('/v1/decisions?limit=1000')).body.decisions.length).toBe(before);
  });

  it('takes a window and a limit, newest first, and says when the window was cut', async () => {
    const cut = await api.post('/v1/policies/base/impact', { yamlContent: STRICT, limit: 2 });
    expect(cut.body).toMatchObject({ evaluated: 2, window: { limit: 2, cut: true } });
    expect(cut.body.changes[0].sampleDecisionIds).toEqual(ids.slice(0, 2));
    const newest = (await api.get(`/v1/decisions/${ids[0]}`)).body.timestamp;
    const windowed = await api.post('/v1/policies/base/impact', { yamlContent: STRICT, from: newest });
    expect(windowed.body).toMatchObject({ evaluated: 1, window: { from: newest, cut: false, newest, oldest: newest } });
    const empty = await api.post('/v1/policies/base/impact', { yamlContent: STRICT, to: '2000-01-01T00:00:00Z' });
    expect(empty.body).toMatchObject({ evaluated: 0, changes: [], window: { oldest: null, newest: null } });
  });

  it('refuses invalid candidates and parameters as a save would', async () => {
    const cases: [string, unknown, number, string][] = [
      ['base', { yamlContent: 'name: [' }, 422, 'INVALID_POLICY_YAML'],
      ['base', { yamlContent: 'name: x\ncategories:\n  hate: { threshold: 2, action: block }\n' }, 422, 'INVALID_POLICY'],
      ['base', { yamlContent: STRICT, limit: 100_000 }, 422, 'VALIDATION_ERROR'],
      ['base', { yamlContent: STRICT, from: 'yesterday' }, 422, 'VALIDATION_ERROR'],
      ['base', { yamlContent: STRICT, from: '2030-01-01T00:00:00Z', to: '2020-01-01T00:00:00Z' }, 422, 'VALIDATION_ERROR'],
      ['nope', { yamlContent: STRICT }, 404, 'POLICY_NOT_FOUND'],
    ];
    for (const [policyId, body, status, code] of cases) {
      const r = await api.post(`/v1/policies/${policyId}/impact`, body);
      expect({ policyId, body, status: r.status, code: r.body?.code }).toEqual({ policyId, body, status, code });
      expectErrorBody(r.body);
    }
  });
});
