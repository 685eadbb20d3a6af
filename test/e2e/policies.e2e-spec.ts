import { ApiClient, expectErrorBody, RunningService, startService } from '@cds/testing';

const SHAPE_A = `name: Community
categories:
  hate:
    threshold: 0.6
    action: block
  harassment:
    threshold: 0.5
    action: warn
`;
const SHAPE_B = `name: Strict
version: "2"
rules:
  - category: sexual
    threshold: 0.3
    provider: local
    action: flag
  - category: violence
    threshold: 0.4
    provider: local
    action: block
`;

describe('policies', () => {
  let svc: RunningService;
  let api: ApiClient;

  beforeAll(async () => {
    svc = await startService();
    api = new ApiClient(svc.baseUrl, svc.adminKey);
  });
  afterAll(() => svc?.stop());

  it('stores the categories shape and returns the Policy', async () => {
    const r = await api.post('/v1/policies', { policyId: 'community', yamlContent: SHAPE_A });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      policyId: 'community',
      name: 'Community',
      categories: { hate: { threshold: 0.6, action: 'block' }, harassment: { threshold: 0.5, action: 'warn' } },
      version: 1,
    });
    const got = await api.get('/v1/policies/community');
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ policyId: 'community', name: 'Community', categories: r.body.categories, yamlContent: SHAPE_A });
  });

  it('stores the rules shape, normalized to categories', async () => {
    const r = await api.post('/v1/policies', { policyId: 'strict', yamlContent: SHAPE_B });
    expect(r.status).toBe(201);
    expect(r.body.name).toBe('Strict');
    expect(r.body.categories).toMatchObject({
      sexual: { threshold: 0.3, action: 'flag' },
      violence: { threshold: 0.4, action: 'block' },
    });
  });

  it('updates in place: 200 and a new version, used by the next check', async () => {
    await api.post('/v1/policies', { policyId: 'evolving', yamlContent: 'name: V1\ncategories:\n  hate: { threshold: 1, action: block }\n' });
    const r = await api.post('/v1/policies', { policyId: 'evolving', yamlContent: 'name: V2\ncategories:\n  hate: { threshold: 0, action: warn }\n' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'V2', version: 2 });
    const check = await api.post('/v1/check', { content: 'hi', policyId: 'evolving' });
    expect(check.body.action).toBe('warn');
    const decision = await api.get(`/v1/decisions/${check.body.decisionId}`);
    expect(decision.body).toMatchObject({ policyId: 'evolving', policyVersion: 2 });
  });

  it('lists the tenant policies and the built-in default', async () => {
    const r = await api.get('/v1/policies');
    expect(r.status).toBe(200);
    const ids = r.body.policies.map((p: any) => p.policyId);
    expect(ids).toEqual(expect.arrayContaining(['community', 'strict', 'evolving', 'default']));
    for (const p of r.body.policies)
      expect(p).toEqual(expect.objectContaining({ policyId: expect.any(String), name: expect.any(String), categories: expect.any(Object) }));
  });

  it('answers 422 naming the line and the reason for invalid YAML or rules', async () => {
    const cases: [string, RegExp][] = [
      ['name: x\ncategories:\n  hate: { threshold: 0.5, action: block\n', /line \d+/],
      ['name: x\ncategories:\n  hate:\n    threshold: high\n    action: block\n', /line 4/],
      ['name: x\ncategories:\n  hate:\n    threshold: 0.5\n    action: destroy\n', /line 5/],
      ['name: x\nrules:\n  - category: hate\n    threshold: 0.2\n    action: block\n  - category: hate\n    threshold: 0.2\n    action: block\n', /line 6/],
    ];
    for (const [yaml, line] of cases) {
      const r = await api.post('/v1/policies', { policyId: 'bad', yamlContent: yaml });
      expect(r.status).toBe(422);
      expectErrorBody(r.body);
      expect(r.body.code).toMatch(/^INVALID_POLICY/);
      expect(`${r.body.error} ${r.body.details}`).toMatch(line);
    }
    expect((await api.get('/v1/policies/bad')).status).toBe(404);
  });

  it('refuses hostile YAML safely and quickly', async () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 10; i++)
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill('*' + String.fromCharCode(96 + i))
          .join(',')}]`,
      );
    const hostile = [
      bomb.join('\n') + '\nname: bomb\ncategories: {}\n',
      'name: !!js/function "function(){return 1}"\ncategories:\n  hate: { threshold: 0.5, action: block }\n',
      'name: !custom x\ncategories:\n  hate: { threshold: 0.5, action: block }\n',
      'name: deep\ncategories: ' + '['.repeat(5000) + ']'.repeat(5000) + '\n',
      'name: big\ncategories:\n' + Array.from({ length: 5000 }, (_, i) => `  c${i}: { threshold: 0.5, action: block }`).join('\n'),
      'name: a\n---\nname: b\n',
      '- just\n- a list\n',
      '__proto__: { polluted: true }\nname: x\ncategories:\n  hate: { threshold: 0.5, action: block }\n',
    ];
    for (const yamlContent of hostile) {
      const started = Date.now();
      const r = await api.post('/v1/policies', { policyId: 'hostile', yamlContent });
      expect(r.status).toBe(422);
      expectErrorBody(r.body);
      expect(Date.now() - started).toBeLessThan(5000);
    }
    expect(({} as any).polluted).toBeUndefined();
  });

  it('validates the request fields', async () => {
    expect((await api.post('/v1/policies', { policyId: 'x' })).status).toBe(422);
    expect((await api.post('/v1/policies', { yamlContent: SHAPE_A })).status).toBe(422);
    expect((await api.post('/v1/policies', { policyId: 'has space', yamlContent: SHAPE_A })).status).toBe(422);
    expect((await api.post('/v1/policies', { policyId: 'x', yamlContent: 42 })).status).toBe(422);
    const missing = await api.get('/v1/policies/missing');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('POLICY_NOT_FOUND');
  });
});
