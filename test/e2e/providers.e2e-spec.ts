import { ApiClient, RunningService, startService } from '@cds/testing';
import { FakeProviderServer } from '../../libs/providers/src/external/test/fake-provider.server';
import { moderation as answer } from '../../libs/providers/src/external/test/openai-answers';
import { sharedImage } from './support/image-fixtures';

const KEY = 'sk-e2e-0123456789abcdef';
const moderation = (scores: Record<string, number>) => answer(scores, 'text');

const SERVER_ERROR = {
  status: 500,
  body: { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } },
};
const policy = (...lines: string[]) => lines.join('\n') + '\n';

/**
 * The service configured with an OpenAI-compatible moderation server (a local one that
 * answers as OpenAI documents): a policy routes categories to it, a failure falls back to
 * `local`, `fallback: []` fails closed with 503, answers are cached, a policy naming a
 * provider that is not configured is refused, and GET /v1/providers shows it all.
 */
describe('external providers through the service (openai, google-vision, azure)', () => {
  let fake: FakeProviderServer;
  let vision: FakeProviderServer;
  let azure: FakeProviderServer;
  let svc: RunningService;
  let api: ApiClient;

  beforeAll(async () => {
    [fake, vision, azure] = await Promise.all([FakeProviderServer.start(), FakeProviderServer.start(), FakeProviderServer.start()]);
    svc = await startService({
      env: {
        OPENAI_API_KEY: KEY,
        OPENAI_BASE_URL: `${fake.baseUrl}/v1`,
        GOOGLE_VISION_API_KEY: 'gv-e2e-key',
        GOOGLE_VISION_BASE_URL: vision.baseUrl,
        AZURE_CONTENT_SAFETY_ENDPOINT: azure.baseUrl,
        AZURE_CONTENT_SAFETY_KEY: '0123456789abcdef0123456789abcdef',
        PROVIDER_MAX_RETRIES: '0',
        PROVIDER_CIRCUIT_FAILURES: '50',
      },
    });
    api = new ApiClient(svc.baseUrl, svc.adminKey);
    for (const [policyId, yaml] of [
      [
        'routed',
        policy('name: Routed', 'provider: openai', 'categories:', '  hate: {threshold: 0.7, action: block}', '  violence: {threshold: 0.7, action: flag}'),
      ],
      ['strict', policy('name: Strict', 'provider: openai', 'fallback: []', 'categories:', '  hate: {threshold: 0.7, action: block}')],
      [
        'images',
        policy(
          'name: Images',
          'rules:',
          '  - {category: sexual, threshold: 0.7, provider: google-vision, action: block}',
          '  - {category: hate, threshold: 0.7, action: block}',
        ),
      ],
      [
        'azure',
        policy('name: Azure', 'provider: azure', 'categories:', '  hate: {threshold: 0.7, action: block}', '  violence: {threshold: 0.7, action: flag}'),
      ],
      [
        'mixed',
        policy(
          'name: Mixed',
          'rules:',
          '  - {category: hate, threshold: 0.7, provider: openai, action: block}',
          '  - {category: violence, threshold: 0.7, action: flag}',
        ),
      ],
    ]) {
      expect((await api.post('/v1/policies', { policyId, yamlContent: yaml })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await svc?.stop();
    await Promise.all([fake?.close(), vision?.close(), azure?.close()]);
  });

  it('lists the providers, configured or not, with their circuits and the defaults', async () => {
    const r = await api.get('/v1/providers');
    expect(r.status).toBe(200);
    const byName = Object.fromEntries(r.body.providers.map((p: { name: string }) => [p.name, p]));
    expect(byName.openai).toEqual({ name: 'openai', configured: true, modalities: ['text', 'image'], circuit: 'closed' });
    expect(byName.local).toMatchObject({ configured: true, circuit: 'closed' });
    expect(byName['google-vision']).toMatchObject({ configured: true, modalities: ['image'] });
    expect(byName.llamaguard).toMatchObject({ configured: false });
    expect(r.body.defaults).toEqual({ text: 'local', image: 'local' });
    expect(((await fetch(`${svc.baseUrl}/ready`).then((x) => x.json())) as { providers: unknown }).providers).toMatchObject({
      local: 'closed',
      openai: 'closed',
    });
  });

  it('scores the categories a policy routes to openai with openai, sending the text and never the metadata', async () => {
    fake.answer({ status: 200, body: moderation({ hate: 0.93, violence: 0.02 }) });
    const r = await api.post('/v1/check', { content: 'routed text one', policyId: 'routed', metadata: { userId: 'u-secret-7' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ action: 'block', provider: 'openai' });
    expect(r.body.categories.find((c: { category: string }) => c.category === 'hate')).toMatchObject({ score: 0.93, triggered: true });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ path: '/v1/moderations', json: { model: 'omni-moderation-latest', input: 'routed text one' } });
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.requests[0].body).not.toContain('u-secret-7');

    const stored = await api.get(`/v1/decisions/${r.body.decisionId}`);
    expect(Object.keys(stored.body.signals)).toEqual(['openai']);
    expect(stored.body.parts[0].routes).toEqual({ hate: ['openai'], violence: ['openai'] });
    expect(stored.body.parts[0].attempts).toEqual([expect.objectContaining({ provider: 'openai', ok: true })]);
  });

  it('calls each provider once for a policy that mixes them, and uses each for its own categories', async () => {
    fake.answer({ status: 200, body: moderation({ hate: 0.05, violence: 0.99 }) });
    const r = await api.post('/v1/check', { content: 'I am going to kill you and your whole family tonight', policyId: 'mixed' });
    expect(r.status).toBe(200);
    expect(fake.requests).toHaveLength(1);
    expect(r.body.provider).toBe('local,openai');
    const stored = await api.get(`/v1/decisions/${r.body.decisionId}`);
    expect(stored.body.parts[0].routes).toEqual({ hate: ['openai'], violence: ['local'] });
    // hate is openai's 0.05, not whatever local said about this threat.
    expect(r.body.categories.find((c: { category: string }) => c.category === 'hate').score).toBe(0.05);
  });

  it('answers a repeated check from the cache: the provider is not paid twice', async () => {
    fake.answer({ status: 200, body: moderation({ hate: 0.2 }) });
    const replicas = svc.topology?.apis.length ?? 1;
    for (let i = 0; i < replicas + 1; i++) {
      const r = await api.post('/v1/check', { content: 'the same words, checked again', policyId: 'routed' });
      expect(r.status).toBe(200);
    }
    // One call per api process at most (each keeps its own cache).
    expect(fake.requests.length).toBeLessThanOrEqual(replicas);
  });

  it('shares one call among identical items checked at the same moment (single flight): one batch, then concurrent checks', async () => {
    // Slow enough that every copy asks while the first call is still out.
    fake.answer({ status: 200, body: moderation({ hate: 0.3 }), delayMs: 400 });
    const same = 'two identical items of one batch, at the same moment';
    const batch = await api.post('/v1/batch/check', {
      policyId: 'routed',
      items: [
        { id: 'a', content: same },
        { id: 'b', content: same },
        { id: 'c', content: same },
      ],
    });
    expect(batch.status).toBe(200);
    expect(fake.requests.filter((r) => (r.json as { input?: unknown })?.input === same)).toHaveLength(1);
    const attempts = await Promise.all(
      batch.body.items.map(async (i: { decisionId: string }) => (await api.get(`/v1/decisions/${i.decisionId}`)).body.parts[0].attempts),
    );
    const openai = attempts.map((a: { provider: string; ok: boolean; cached?: boolean }[]) => a.find((x) => x.provider === 'openai')!);
    expect(openai.filter((a) => !a.cached)).toHaveLength(1);
    expect(openai.every((a) => a.ok)).toBe(true);

    const concurrent = 'the same words, sent three times at once';
    const answers = await Promise.all([0, 1, 2].map(() => api.post('/v1/check', { content: concurrent, policyId: 'routed' })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    // One call per api process at most (in distributed mode the checks alternate between replicas).
    const calls = fake.requests.filter((r) => (r.json as { input?: unknown })?.input === concurrent).length;
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(calls).toBeLessThanOrEqual(svc.topology?.apis.length ?? 1);
  });

  it('falls back to local when openai fails, records the failed attempt, and still decides', async () => {
    fake.answer(SERVER_ERROR);
    const r = await api.post('/v1/check', { content: 'openai is down for this one', policyId: 'routed' });
    expect(r.status).toBe(200);
    expect(r.body.provider).toBe('local');
    const stored = await api.get(`/v1/decisions/${r.body.decisionId}`);
    expect(stored.body.parts[0].routes).toEqual({ hate: ['local'], violence: ['local'] });
    expect(stored.body.parts[0].attempts).toEqual([
      expect.objectContaining({ provider: 'openai', ok: false, reason: 'server_error' }),
      expect.objectContaining({ provider: 'local', ok: true }),
    ]);
  });

  it('answers 503 PROVIDER_UNAVAILABLE when no provider may score (fallback: []), never a silent allow', async () => {
    fake.answer(SERVER_ERROR);
    const r = await api.post('/v1/check', { content: 'nobody can score this', policyId: 'strict' });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect(r.body.details).toContain('openai (server_error)');
  });

  it('refuses at save time a policy naming a provider that is not configured', async () => {
    const r = await api.post('/v1/policies', {
      policyId: 'azure-only',
      yamlContent: policy('name: A', 'provider: llamaguard', 'categories:', '  hate: {threshold: 0.5, action: block}'),
    });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED' });
    expect(r.body.error).toContain('"llamaguard"');
  });

  it('sends an image to google-vision for the category routed to it, and prices the call', async () => {
    vision.answer({
      status: 200,
      body: {
        responses: [{ safeSearchAnnotation: { adult: 'VERY_LIKELY', spoof: 'VERY_UNLIKELY', medical: 'UNLIKELY', violence: 'UNLIKELY', racy: 'LIKELY' } }],
      },
    });
    const photo = sharedImage('coffee.png');
    const r = await api.post('/v1/check', { content: photo.toString('base64'), contentType: 'image', policyId: 'images' });
    expect(r.status).toBe(200);
    expect(r.body.action).toBe('block');
    expect(r.body.cost).toBeCloseTo(0.0015, 6);
    expect(vision.requests).toHaveLength(1);
    expect(vision.requests[0]).toMatchObject({ path: '/v1/images:annotate' });
    expect(vision.requests[0].query.get('key')).toBe('gv-e2e-key');
    expect((vision.requests[0].json as { requests: { image: { content: string } }[] }).requests[0].image.content).toBe(photo.toString('base64'));
    const stored = await api.get(`/v1/decisions/${r.body.decisionId}`);
    expect(stored.body.parts[0].routes.sexual).toEqual(['google-vision']);
    // hate is not google-vision's: the image default (local) scored it.
    expect(stored.body.parts[0].routes.hate).toEqual(['local']);
  });

  it('scores text with azure content safety, severities mapped to scores', async () => {
    azure.answer({
      status: 200,
      body: {
        blocklistsMatch: [],
        categoriesAnalysis: [
          { category: 'Hate', severity: 6 },
          { category: 'SelfHarm', severity: 0 },
          { category: 'Sexual', severity: 0 },
          { category: 'Violence', severity: 2 },
        ],
      },
    });
    const r = await api.post('/v1/check', { content: 'azure scores this one', policyId: 'azure' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ action: 'block', provider: 'azure' });
    expect(azure.requests[0].path).toBe('/contentsafety/text:analyze');
    expect(azure.requests[0].headers['ocp-apim-subscription-key']).toBe('0123456789abcdef0123456789abcdef');
    expect(r.body.categories.find((c: { category: string }) => c.category === 'hate')).toMatchObject({ score: 1, triggered: true });
  });

  it('replays an openai decision from its stored signals, calling nobody', async () => {
    fake.answer({ status: 200, body: moderation({ hate: 0.75 }) });
    const r = await api.post('/v1/check', { content: 'replay me later', policyId: 'routed' });
    expect(r.body.action).toBe('block');
    fake.answer(SERVER_ERROR);
    const replay = await api.post(`/v1/decisions/${r.body.decisionId}/replay`, { policyId: 'default' });
    expect(replay.status).toBe(200);
    expect(replay.body.provider).toBe('openai');
    expect(replay.body.categories.find((c: { category: string }) => c.category === 'hate').score).toBe(0.75);
    expect(fake.requests).toHaveLength(0);
  });
});
