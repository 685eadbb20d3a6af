import { ApiClient, RunningService, startService } from '@cds/testing';
import { MediaServer } from './support/media-server';
import { DeploymentLog, eventually } from './webhook-test-receiver';

/** Every JSON line a process printed. */
function jsonLines(output: string): Record<string, any>[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

describe('structured logs and request ids', () => {
  let svc: RunningService;
  let api: ApiClient;
  const media = new MediaServer();

  beforeAll(async () => {
    await media.start();
    svc = await startService({ env: { LOG_LEVEL: 'debug', LOG_FORMAT: 'json', EGRESS_ALLOW_LOOPBACK: 'true' } });
    api = new ApiClient(svc.baseUrl, svc.adminKey);
  });
  afterAll(async () => {
    await svc?.stop();
    await media.stop();
  });

  it('answers the request id it was given, or a new one, in x-request-id; a hostile one is replaced', async () => {
    const given = await api.post('/v1/check', { content: 'hello', policyId: 'default' }, { 'x-request-id': 'trace-abc-1' });
    expect(given.headers.get('x-request-id')).toBe('trace-abc-1');
    const fresh = await api.get('/v1/policies');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const hostile = await api.get('/v1/policies', { 'x-request-id': 'x'.repeat(300) });
    expect(hostile.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await api.withKey('nope-nope-nope-nope').get('/v1/policies', { 'x-request-id': 'trace-401' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toBe('trace-401');
  });

  it('carries the request id into the events it wrote and into the logs of every process, as JSON lines without content', async () => {
    const secretText = 'a very particular sentence 7f3a';
    const r = await api.post('/v1/check', { content: secretText, policyId: 'default' }, { 'x-request-id': 'trace-log-2' });
    const log = await DeploymentLog.open(svc);
    try {
      const event = await log.find('decisions', (e) => (e.data as any).decisionId === r.body.decisionId, 'the decision on the log');
      expect(event.requestId).toBe('trace-log-2');
      const g = await api.post(
        '/v1/agent/guardrails/action-authorize',
        { actionType: 'file_read', targetPath: './src/index.ts' },
        { 'x-request-id': 'trace-guard-4' },
      );
      const guard = await log.find('guardrails', (e) => (e.data as any).decisionId === g.body.decisionId, 'the guardrail decision on the log');
      expect(guard.requestId).toBe('trace-guard-4');
      // The decisions an async batch's items get, made later by the runner, carry the id of
      // the request that sent the batch.
      const b = await api.post(
        '/v1/batch/check/async',
        { policyId: 'default', webhookUrl: `${media.baseUrl}/hook`, items: [{ id: 'a', content: 'hello' }] },
        { 'x-request-id': 'trace-batch-5' },
      );
      expect(b.status).toBe(202);
      const item = await log.find('decisions', (e) => (e.data as any).requestId === `batch:${b.body.batchId}:0`, 'the decision of the batch item');
      expect(item.requestId).toBe('trace-batch-5');
    } finally {
      await log.close();
    }
    // A video that fails in the worker logs there under the id of the request that sent it.
    const v = await api.post('/v1/video/check', { videoUrl: `${media.baseUrl}/missing.mp4`, policyId: 'default' }, { 'x-request-id': 'trace-video-3' });
    expect(v.status).toBe(202);
    const workerOutput = () => (svc.topology ? svc.topology.worker.output() : svc.output());
    const failed = await eventually(
      async () => jsonLines(workerOutput()).find((l) => l.requestId === 'trace-video-3' && l.context === 'VideoJobRunner'),
      'the worker log line',
      30_000,
    );
    expect(failed).toMatchObject({ level: 'warn', role: svc.topology ? 'worker' : 'all', msg: expect.stringContaining('MEDIA_FETCH_FAILED') });

    const api1 = jsonLines(svc.output());
    const access = api1.find((l) => l.msg === 'request' && l.requestId === 'trace-log-2');
    expect(access).toMatchObject({ level: 'info', context: 'Http', method: 'POST', route: '/v1/check', status: 200, tenant: 'default' });
    // (the test harness marks each process's part of the output with ===== / ----- lines)
    for (const line of svc
      .output()
      .split('\n')
      .filter((l) => l && !/^(=====|-----) /.test(l))) {
      expect({ line, json: line.startsWith('{') }).toEqual({ line, json: true });
    }
    expect(svc.output()).not.toContain(secretText);
    expect(svc.output()).not.toContain(svc.adminKey);
  });
});

/** The access line at the default level, and ACCESS_LOG=off. */
describe('access lines', () => {
  const secretText = 'another very particular sentence 91c2';
  let svc: RunningService;
  let quiet: RunningService;

  beforeAll(async () => {
    [svc, quiet] = await Promise.all([
      startService({ env: { LOG_LEVEL: 'log', LOG_FORMAT: 'json' } }),
      startService({ env: { LOG_LEVEL: 'log', LOG_FORMAT: 'json', ACCESS_LOG: 'off' } }),
    ]);
  });
  afterAll(async () => {
    await svc?.stop();
    await quiet?.stop();
  });

  /** The access lines of the api processes (the proxy in front of the replicas logs none). */
  const accessLines = (s: RunningService) => jsonLines(s.output()).filter((l) => l.msg === 'request' && l.context === 'Http');

  it('writes one line per request at the default level: method, route pattern, status, ms, request id, tenant, key id; no content, no key', async () => {
    const api = new ApiClient(svc.baseUrl, svc.adminKey);
    const key = await api.post('/v1/keys', { name: 'access-line', tenantId: 'acme', scopes: ['checks', 'decisions'] });
    expect(key.status).toBe(201);
    const tenantKey = key.body.key as string;
    const r = await api.withKey(tenantKey).post('/v1/check', { content: secretText, policyId: 'default' }, { 'x-request-id': 'trace-access-1' });
    expect(r.status).toBe(200);
    await api.withKey(tenantKey).get(`/v1/decisions/${r.body.decisionId}?q=${encodeURIComponent(secretText)}`, { 'x-request-id': 'trace-access-2' });
    const refused = await api.withKey('wrong-key-0123456789abcdef').get('/v1/policies', { 'x-request-id': 'trace-access-3' });
    expect(refused.status).toBe(401);

    const lines = await eventually(async () => {
      const found = ['trace-access-1', 'trace-access-2', 'trace-access-3'].map((id) => accessLines(svc).find((l) => l.requestId === id));
      return found.every(Boolean) ? found : undefined;
    }, 'the three access lines');
    expect(lines[0]).toEqual({
      level: 'info',
      time: expect.any(String),
      role: expect.any(String),
      pid: expect.any(Number),
      context: 'Http',
      msg: 'request',
      method: 'POST',
      route: '/v1/check',
      status: 200,
      ms: expect.any(Number),
      requestId: 'trace-access-1',
      tenant: 'acme',
      keyId: key.body.id,
    });
    expect(lines[1]).toMatchObject({ method: 'GET', route: '/v1/decisions/:decisionId', status: 200, tenant: 'acme', keyId: key.body.id });
    expect(lines[2]).toMatchObject({ method: 'GET', route: '/v1/policies', status: 401, tenant: null, keyId: null });
    const out = svc.output();
    for (const secret of [secretText, encodeURIComponent(secretText), tenantKey, svc.adminKey, 'wrong-key-0123456789abcdef', r.body.decisionId]) {
      expect({ secret, logged: out.includes(secret) }).toEqual({ secret, logged: false });
    }
  });

  it('writes none with ACCESS_LOG=off', async () => {
    const api = new ApiClient(quiet.baseUrl, quiet.adminKey);
    expect((await api.post('/v1/check', { content: 'hello', policyId: 'default' }, { 'x-request-id': 'trace-quiet-1' })).status).toBe(200);
    expect((await api.get('/v1/policies')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200)); // lines are written before the answer ends; a margin for the pipe
    expect(accessLines(quiet)).toEqual([]);
    expect(quiet.output()).not.toContain('trace-quiet-1');
  });
});
