import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import { request } from 'node:http';
import * as path from 'node:path';
import { TOPICS } from '@cds/events';
import { ApiClient, e2eMode, expectErrorBody, freePort, infraEnv, prefixOf, RunningService, startService } from '@cds/testing';
import { SIGNATURE_HEADER, signPayload, verifySignature, WebhookSignatureError } from '@cds/webhooks';
import { deliveryHandler } from '../../examples/webhook-receiver/receiver-handler';
import { DeploymentLog, eventually, TestReceiver } from './webhook-test-receiver';

const ALL_EVENTS = [
  'decision.created',
  'decision.flagged',
  'decision.blocked',
  'agent.guardrail.blocked',
  'agent.guardrail.approval_required',
  'moderation.completed',
  'moderation.failed',
];

function signatureFailure(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (err) {
    if (err instanceof WebhookSignatureError) return err.reason;
    throw err;
  }
}

describe('webhooks: registration, signed deliveries, test events', () => {
  let svc: RunningService;
  let admin: ApiClient;
  let sink: TestReceiver;

  beforeAll(async () => {
    svc = await startService({ env: { EGRESS_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCHEDULE: '0,200ms,400ms' } });
    admin = new ApiClient(svc.baseUrl, svc.adminKey);
    sink = await TestReceiver.start('/sink');
  });
  afterAll(async () => {
    await svc?.stop();
    await sink?.close();
  });

  const register = async (url: string, events: string[], client = admin) => {
    const r = await client.post('/v1/webhooks', { url, events, description: 'e2e' });
    expect(r.status).toBe(201);
    return r.body as { id: string; secret: string };
  };

  describe('registration', () => {
    it('creates a webhook (201) showing the secret once; GET and the list never show it', async () => {
      const created = await admin.post('/v1/webhooks', { url: sink.url, events: ['decision.created'], description: 'mine' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ url: sink.url, events: ['decision.created'], description: 'mine', enabled: true });
      expect(created.body.secret).toMatch(/^whsec_[\w-]{20,}$/);
      const one = await admin.get(`/v1/webhooks/${created.body.id}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id: created.body.id, url: sink.url, events: ['decision.created'], enabled: true });
      expect(one.body).not.toHaveProperty('secret');
      const list = await admin.get('/v1/webhooks');
      expect(list.status).toBe(200);
      expect(list.body.webhooks.map((w: any) => w.id)).toContain(created.body.id);
      expect(list.text).not.toContain(created.body.secret);
    });

    it('accepts every event type of the spec and refuses others with 422 INVALID_WEBHOOK_EVENT', async () => {
      expect((await admin.post('/v1/webhooks', { url: sink.url, events: ALL_EVENTS })).status).toBe(201);
      const r = await admin.post('/v1/webhooks', { url: sink.url, events: ['decision.created', 'decision.deleted'] });
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('INVALID_WEBHOOK_EVENT');
      expect(r.body.details).toContain('decision.deleted');
      expectErrorBody(r.body);
      for (const body of [{ url: sink.url }, { url: sink.url, events: [] }, { url: sink.url, events: 'decision.created' }, { events: ['decision.created'] }]) {
        const bad = await admin.post('/v1/webhooks', body);
        expect(bad.status).toBe(422);
        expect(bad.body.code).toBe('VALIDATION_ERROR');
      }
    });

    it('refuses URLs that are not http(s) or that the egress guard refuses, with 422', async () => {
      for (const url of ['ftp://127.0.0.1/hook', 'not a url', 'http://user:pw@127.0.0.1/hook']) {
        const r = await admin.post('/v1/webhooks', { url, events: ['decision.created'] });
        expect({ url, status: r.status, code: r.body.code }).toEqual({ url, status: 422, code: 'INVALID_WEBHOOK_URL' });
      }
      // Loopback is allowed in this deployment (EGRESS_ALLOW_LOOPBACK=true); private and metadata ranges are not.
      for (const url of ['http://169.254.169.254/latest/meta-data', 'http://10.0.0.8/hook', 'http://[::ffff:a9fe:a9fe]/x', 'http://0xa9fea9fe/x']) {
        const r = await admin.post('/v1/webhooks', { url, events: ['decision.created'] });
        expect({ url, status: r.status, code: r.body.code }).toEqual({ url, status: 422, code: 'EGRESS_REFUSED' });
      }
    });

    it('PATCHes enabled, events, url and description, validating them like creation', async () => {
      const { id } = await register(sink.url, ['decision.created']);
      const other = await TestReceiver.start('/other');
      try {
        const r = await admin.request('PATCH', `/v1/webhooks/${id}`, { enabled: false, events: ['decision.blocked'], url: other.url, description: 'changed' });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ id, enabled: false, events: ['decision.blocked'], url: other.url, description: 'changed' });
        expect((await admin.get(`/v1/webhooks/${id}`)).body).toMatchObject({ enabled: false, events: ['decision.blocked'], url: other.url });
        expect((await admin.request('PATCH', `/v1/webhooks/${id}`, { events: ['nope'] })).body.code).toBe('INVALID_WEBHOOK_EVENT');
        expect((await admin.request('PATCH', `/v1/webhooks/${id}`, { url: 'http://169.254.169.254/' })).body.code).toBe('EGRESS_REFUSED');
        expect((await admin.request('PATCH', `/v1/webhooks/${id}`, { enabled: 'no' })).status).toBe(422);
      } finally {
        await other.close();
      }
    });

    it('refuses null and wrong types on every route with 400/422 {error, code, details}, never a 500, and stores nothing', async () => {
      const { id } = await register(sink.url, ['decision.created']);
      const before = (await admin.get(`/v1/webhooks/${id}`)).body;
      const url = sink.url;
      const events = ['decision.created'];
      const cases: [string, string, unknown, number][] = [
        ['POST', '/v1/webhooks', { url: null, events }, 422],
        ['POST', '/v1/webhooks', { url, events: null }, 422],
        ['POST', '/v1/webhooks', { url: 5, events }, 422],
        ['POST', '/v1/webhooks', { url: [url], events }, 422],
        ['POST', '/v1/webhooks', { url, events: [null] }, 422],
        ['POST', '/v1/webhooks', { url, events: 'decision.created' }, 422],
        ['POST', '/v1/webhooks', { url, events, description: 7 }, 422],
        ['POST', '/v1/webhooks', '[]', 400],
        ['POST', '/v1/webhooks', 'null', 400],
        ['POST', '/v1/webhooks', '{"url":', 400],
        ['PATCH', `/v1/webhooks/${id}`, { events: null }, 422],
        ['PATCH', `/v1/webhooks/${id}`, { enabled: null }, 422],
        ['PATCH', `/v1/webhooks/${id}`, { url: null }, 422],
        ['PATCH', `/v1/webhooks/${id}`, { url: 5 }, 422],
        ['PATCH', `/v1/webhooks/${id}`, { url: '' }, 422],
        ['PATCH', `/v1/webhooks/${id}`, { events: [] }, 422],
        ['PATCH', `/v1/webhooks/${id}`, { events: [1] }, 422],
        ['PATCH', `/v1/webhooks/${id}`, { enabled: 'true' }, 422],
        ['PATCH', `/v1/webhooks/${id}`, { enabled: 1 }, 422],
        ['PATCH', `/v1/webhooks/${id}`, { description: 7 }, 422],
        ['PATCH', `/v1/webhooks/${id}`, { description: 'x'.repeat(501) }, 422],
        ['PATCH', `/v1/webhooks/${id}`, '[]', 400],
        ['PATCH', `/v1/webhooks/${id}`, 'null', 400],
        ['POST', `/v1/webhooks/${id}/test`, { eventType: null }, 422],
        ['POST', `/v1/webhooks/${id}/test`, { eventType: 5 }, 422],
        ['POST', `/v1/webhooks/${id}/test`, { eventType: ['decision.created'] }, 422],
        ['POST', `/v1/webhooks/${id}/test`, {}, 422],
        ['POST', `/v1/webhooks/${id}/test`, '[]', 400],
        ...['abc', '-1', '0', '100000', '1.5', '', '1&limit=2', '1e2'].map((limit): [string, string, unknown, number] => [
          'GET',
          `/v1/webhooks/${id}/deliveries?limit=${limit}`,
          undefined,
          422,
        ]),
      ];
      for (const [method, route, body, status] of cases) {
        const r = await admin.request(method, route, body);
        expect({ method, route, body, status: r.status }).toEqual({ method, route, body, status });
        expectErrorBody(r.body);
      }
      // Nothing was stored: the webhook reads as before, with a boolean `enabled`.
      expect((await admin.get(`/v1/webhooks/${id}`)).body).toEqual(before);
      expect((await admin.get('/v1/webhooks')).body.webhooks.filter((w: any) => typeof w.enabled !== 'boolean' || !Array.isArray(w.events))).toEqual([]);
      // `description: null` clears the description.
      const cleared = await admin.request('PATCH', `/v1/webhooks/${id}`, { description: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ description: null, enabled: true, events });
      expect((await admin.get(`/v1/webhooks/${id}`)).body).toMatchObject({ description: null, enabled: true, events, url });
    });

    it('DELETE answers 200 {id, deleted: true}; the webhook then answers 404 everywhere', async () => {
      const { id } = await register(sink.url, ['decision.created']);
      const r = await admin.delete(`/v1/webhooks/${id}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ id, deleted: true });
      for (const res of [
        await admin.get(`/v1/webhooks/${id}`),
        await admin.delete(`/v1/webhooks/${id}`),
        await admin.get(`/v1/webhooks/${id}/deliveries`),
        await admin.post(`/v1/webhooks/${id}/test`, { eventType: 'decision.created' }),
        await admin.request('PATCH', `/v1/webhooks/${id}`, { enabled: true }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('WEBHOOK_NOT_FOUND');
      }
      expect((await admin.get('/v1/webhooks')).body.webhooks.map((w: any) => w.id)).not.toContain(id);
    });

    it('needs the webhooks scope (403), and another tenant gets 404 for every route', async () => {
      const { id } = await register(sink.url, ['decision.created']);
      const checker = admin.withKey((await admin.post('/v1/keys', { name: 'c', scopes: ['checks'] })).body.key);
      const denied = await checker.get('/v1/webhooks');
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe('INSUFFICIENT_SCOPE');

      const stranger = admin.withKey((await admin.post('/v1/keys', { name: 'b', scopes: ['webhooks'], tenantId: 'tenant-b' })).body.key);
      for (const res of [
        await stranger.get(`/v1/webhooks/${id}`),
        await stranger.request('PATCH', `/v1/webhooks/${id}`, { enabled: false }),
        await stranger.post(`/v1/webhooks/${id}/test`, { eventType: 'decision.created' }),
        await stranger.get(`/v1/webhooks/${id}/deliveries`),
        await stranger.delete(`/v1/webhooks/${id}`),
      ]) {
        expect(res.status).toBe(404);
        expectErrorBody(res.body);
      }
      expect((await stranger.get('/v1/webhooks')).body).toEqual({ webhooks: [] });
      expect((await admin.get(`/v1/webhooks/${id}`)).body.enabled).toBe(true);
    });

    it('keeps the secret out of the log and the read models (sealed with AES-256-GCM)', async () => {
      const { id, secret } = await register(sink.url, ['decision.created']);
      await admin.post(`/v1/webhooks/${id}/test`, { eventType: 'decision.created' }); // an attempt recorded too
      const log = await DeploymentLog.open(svc);
      try {
        const created = await log.find('webhooks', (e) => e.type === 'webhook.created' && (e.data as any).webhookId === id, 'webhook.created on the log');
        expect((created.data as any).secretCiphertext).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
        for (const topic of TOPICS) expect({ topic, found: JSON.stringify(await log.events(topic)).includes(secret) }).toEqual({ topic, found: false });
      } finally {
        await log.close();
      }
      if (e2eMode() === 'embedded') {
        // Every file of the deployment: the log's segments and the SQLite read models.
        const files: string[] = [];
        const walk = (dir: string) => {
          for (const f of fs.readdirSync(dir, { withFileTypes: true })) (f.isDirectory() ? walk : (p: string) => files.push(p))(path.join(dir, f.name));
        };
        walk(svc.dataDir);
        expect(files.some((f) => f.includes(`${path.sep}log${path.sep}`))).toBe(true);
        expect(files.some((f) => f.endsWith('.sqlite'))).toBe(true);
        for (const f of files) expect({ f, found: fs.readFileSync(f).includes(secret) }).toEqual({ f, found: false });
      } else {
        // Every document of the deployment's indices (the webhook's among them), refreshed
        // first: the projector leaves refreshing to the searches that need it.
        expect((await fetch(`${infraEnv().ELASTICSEARCH_URL}/${prefixOf(svc.dataDir)}-*/_refresh`, { method: 'POST' })).status).toBe(200);
        const r = await fetch(`${infraEnv().ELASTICSEARCH_URL}/${prefixOf(svc.dataDir)}-*/_search?size=10000`, { method: 'POST' });
        expect(r.status).toBe(200);
        const text = await r.text();
        expect(text).toContain(`"webhookId":"${id}"`);
        expect(text).not.toContain(secret);
      }
    });
  });

  describe('deliveries', () => {
    let hook: { id: string; secret: string };
    let receiver: TestReceiver;
    beforeAll(async () => {
      receiver = await TestReceiver.start();
      hook = await register(receiver.url, ['decision.created', 'decision.blocked', 'agent.guardrail.blocked']);
      receiver.secret = hook.secret;
    });
    afterAll(() => receiver?.close());

    it('delivers decision.created signed with the webhook secret, {id, type, createdAt, data.id}', async () => {
      const check = await admin.post('/v1/check', { content: 'have a lovely afternoon', policyId: 'default' });
      const got = await receiver.next(receiver.ofType('decision.created', check.body.decisionId));
      expect(got.verified).toBe(true);
      expect(got.answered).toBe(200);
      expect(got.body).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: 'decision.created',
        createdAt: expect.any(String),
        data: expect.objectContaining({ id: check.body.decisionId, action: check.body.action, safe: check.body.safe }),
      });
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers[SIGNATURE_HEADER]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

      const listed = await eventually(async () => {
        const r = await admin.get(`/v1/webhooks/${hook.id}/deliveries`);
        return r.body.deliveries.find((d: any) => d.eventId === got.body.id);
      }, 'the attempt in the deliveries list');
      expect(listed).toMatchObject({
        status: 'succeeded',
        responseCode: 200,
        attempt: 1,
        eventType: 'decision.created',
        error: null,
        nextAttemptAt: null,
        url: receiver.url,
      });
      expect(typeof listed.durationMs).toBe('number');
      expect(Number.isNaN(Date.parse(listed.timestamp))).toBe(false);
    });

    it('delivers a blocked decision as decision.created and decision.blocked', async () => {
      await admin.post('/v1/policies', {
        policyId: 'block-all',
        yamlContent: 'name: block all\ncategories:\n  violence:\n    threshold: 0\n    action: block\n',
      });
      const check = await admin.post('/v1/check', { content: 'anything at all', policyId: 'block-all' });
      expect(check.body.action).toBe('block');
      const blocked = await receiver.next(receiver.ofType('decision.blocked', check.body.decisionId));
      expect(blocked.verified).toBe(true);
      expect(blocked.body.data).toMatchObject({ id: check.body.decisionId, action: 'block' });
      await receiver.next(receiver.ofType('decision.created', check.body.decisionId));
    });

    it('delivers a blocked guardrail decision as agent.guardrail.blocked', async () => {
      const r = await admin.post('/v1/agent/guardrails/action-authorize', { actionType: 'exec', command: 'rm -rf /' });
      expect(r.body.action).toBe('block');
      const got = await receiver.next(receiver.ofType('agent.guardrail.blocked', r.body.decisionId));
      expect(got.verified).toBe(true);
      expect(got.body.data).toMatchObject({
        id: r.body.decisionId,
        decisionId: r.body.decisionId,
        action: 'block',
        riskScore: r.body.riskScore,
        requiresApproval: true,
      });
    });

    it('the shipped verifier rejects a tampered body, a wrong secret and a stale timestamp', async () => {
      const check = await admin.post('/v1/check', { content: 'verify me', policyId: 'default' });
      const got = await receiver.next(receiver.ofType('decision.created', check.body.decisionId));
      const header = got.headers[SIGNATURE_HEADER];
      const t = Number(/t=(\d+)/.exec(String(header))![1]);
      expect(signatureFailure(() => verifySignature({ header, rawBody: got.rawBody, secret: hook.secret }))).toBeNull();
      expect(
        signatureFailure(() => verifySignature({ header, rawBody: got.rawBody.replace('"decision.created"', '"decision.blocked"'), secret: hook.secret })),
      ).toBe('signature_mismatch');
      expect(signatureFailure(() => verifySignature({ header, rawBody: got.rawBody, secret: 'whsec_not-the-secret' }))).toBe('signature_mismatch');
      expect(signatureFailure(() => verifySignature({ header, rawBody: got.rawBody, secret: hook.secret, nowSeconds: t + 301 }))).toBe(
        'timestamp_outside_tolerance',
      );

      // And the receiver, verifying with it, answers 401 to a replayed header on a tampered body.
      const tampered = await fetch(receiver.url, {
        method: 'POST',
        headers: { [SIGNATURE_HEADER]: String(header), 'content-type': 'application/json' },
        body: got.rawBody + ' ',
      });
      expect(tampered.status).toBe(401);
    });

    it('PATCH enabled=false stops deliveries; enabling again resumes them', async () => {
      const muted = await TestReceiver.start('/muted');
      const witness = await TestReceiver.start('/witness');
      const log = await DeploymentLog.open(svc);
      try {
        const { id, secret } = await register(muted.url, ['decision.created']);
        muted.secret = secret;
        const w = await register(witness.url, ['decision.created']);
        witness.secret = w.secret;
        expect((await admin.request('PATCH', `/v1/webhooks/${id}`, { enabled: false })).body.enabled).toBe(false);
        const check = await admin.post('/v1/check', { content: 'while disabled', policyId: 'default' });
        // The witness receiving the event means its deliveries were planned (on the log
        // before any is sent): none for the disabled webhook.
        const seen = await witness.next(witness.ofType('decision.created', check.body.decisionId));
        const planned = (await log.events('deliveries')).filter((e) => e.type === 'webhook.delivery.scheduled' && (e.data as any).eventId === seen.body.id);
        expect(planned.map((e) => (e.data as any).webhookId)).toContain(w.id);
        expect(planned.map((e) => (e.data as any).webhookId)).not.toContain(id);
        // A later event reaching the witness too: the dispatcher is past the first one.
        const later = await admin.post('/v1/check', { content: 'later, still disabled', policyId: 'default' });
        await witness.next(witness.ofType('decision.created', later.body.decisionId));
        expect(muted.received).toEqual([]);
        expect((await admin.get(`/v1/webhooks/${id}/deliveries`)).body.deliveries).toEqual([]);

        await admin.request('PATCH', `/v1/webhooks/${id}`, { enabled: true });
        const again = await admin.post('/v1/check', { content: 'enabled again', policyId: 'default' });
        const delivered = await muted.next(muted.ofType('decision.created', again.body.decisionId));
        expect(delivered.verified).toBe(true);
        await eventually(async () => {
          const r = await admin.get(`/v1/webhooks/${id}/deliveries`);
          return r.body.deliveries.find((d: any) => d.eventId === delivered.body.id && d.status === 'succeeded');
        }, 'a delivery to the re-enabled webhook');
        expect(muted.received.map((r) => r.body.data.id)).toEqual([again.body.decisionId]);
      } finally {
        await log.close();
        await witness.close();
        await muted.close();
      }
    });

    it('lists deliveries newest first and honours limit (1-1000)', async () => {
      const eventIds: string[] = [];
      for (const content of ['one', 'two', 'three']) {
        const check = await admin.post('/v1/check', { content, policyId: 'default' });
        eventIds.push((await receiver.next(receiver.ofType('decision.created', check.body.decisionId))).body.id);
      }
      // Every delivery this suite caused has arrived: the list no longer changes under us.
      const all = await eventually(async () => {
        const r = await admin.get(`/v1/webhooks/${hook.id}/deliveries?limit=1000`);
        const ids = r.body.deliveries.map((d: any) => d.eventId);
        return eventIds.every((id) => ids.includes(id)) && r.body.deliveries.length === receiver.received.filter((x) => x.verified).length
          ? r.body.deliveries
          : undefined;
      }, 'the three deliveries listed');
      expect(all.length).toBeGreaterThanOrEqual(5);
      const stamps = all.map((d: any) => d.timestamp);
      expect([...stamps].sort().reverse()).toEqual(stamps);
      const two = await admin.get(`/v1/webhooks/${hook.id}/deliveries?limit=2`);
      expect(two.body.deliveries).toEqual(all.slice(0, 2));
      for (const limit of ['0', '1001', 'x', '-1']) expect((await admin.get(`/v1/webhooks/${hook.id}/deliveries?limit=${limit}`)).status).toBe(422);
    });
  });

  describe('POST /v1/webhooks/{id}/test', () => {
    it('sends a real signed event of the requested type and answers {success: true}; the attempt is listed', async () => {
      const target = await TestReceiver.start('/test');
      try {
        const { id, secret } = await register(target.url, ['decision.created']);
        target.secret = secret;
        const r = await admin.post(`/v1/webhooks/${id}/test`, { eventType: 'agent.guardrail.approval_required' });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ success: true, responseCode: 200 });
        const got = await target.next(target.ofType('agent.guardrail.approval_required'));
        expect(got.verified).toBe(true);
        expect(got.body.data).toMatchObject({ test: true, id: expect.any(String) });
        const listed = (await admin.get(`/v1/webhooks/${id}/deliveries`)).body.deliveries;
        expect(listed[0]).toMatchObject({
          eventId: got.body.id,
          eventType: 'agent.guardrail.approval_required',
          status: 'succeeded',
          responseCode: 200,
          attempt: 1,
          test: true,
        });
      } finally {
        await target.close();
      }
    });

    it('answers {success: false} when the endpoint fails, with the failure recorded', async () => {
      const target = await TestReceiver.start('/failing');
      target.status = 500;
      try {
        const { id } = await register(target.url, ['decision.created']);
        const r = await admin.post(`/v1/webhooks/${id}/test`, { eventType: 'decision.created' });
        expect(r.body).toMatchObject({ success: false, responseCode: 500 });
        expect(target.received).toHaveLength(1);
        const [listed] = (await admin.get(`/v1/webhooks/${id}/deliveries`)).body.deliveries;
        expect(listed).toMatchObject({ status: 'failed', responseCode: 500, error: expect.stringContaining('500') });
        await target.close();
        const down = await admin.post(`/v1/webhooks/${id}/test`, { eventType: 'decision.created' });
        expect(down.body).toMatchObject({ success: false, responseCode: null, error: expect.any(String) });
      } finally {
        await target.close().catch(() => undefined);
      }
    });

    it('refuses event types outside the spec table with 422', async () => {
      const { id } = await register(sink.url, ['decision.created']);
      const r = await admin.post(`/v1/webhooks/${id}/test`, { eventType: 'user.created' });
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('INVALID_WEBHOOK_EVENT');
      expect((await admin.post(`/v1/webhooks/${id}/test`, {})).status).toBe(422);
    });
  });
});

describe('examples/webhook-receiver', () => {
  const ROOT = path.resolve(__dirname, '../..');

  /** POSTs `chunks` chunks of 64 KiB as they drain; resolves with the answer, or the error
   * when the receiver cut the connection first. */
  function postChunked(port: number, chunks: number): Promise<{ status?: number; error?: string }> {
    return new Promise((resolve) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-type': 'application/json' } });
      req.on('response', (res) => (res.resume(), resolve({ status: res.statusCode })));
      req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      const write = () => {
        while (sent < chunks) {
          sent++;
          if (!req.write(chunk)) return void req.once('drain', write);
        }
        req.end();
      };
      write();
    });
  }

  it('answers an oversized body once, however many of its chunks come before the 413 is flushed', () => {
    // Chunks parsed from one socket read reach the handler back to back: a second
    // writeHead would throw ERR_HTTP_HEADERS_SENT out of the 'data' listener (and the process).
    const req = Object.assign(new EventEmitter(), { headers: {}, destroyed: false, destroy: () => void (req.destroyed = true) });
    const heads: number[] = [];
    let flushed: (() => void) | undefined;
    const res = {
      headersSent: false,
      writeHead(code: number) {
        if (this.headersSent) throw Object.assign(new Error('Cannot write headers after they are sent to the client'), { code: 'ERR_HTTP_HEADERS_SENT' });
        this.headersSent = true;
        heads.push(code);
        return this;
      },
      end(cb?: () => void) {
        flushed = cb;
        return this;
      },
    };
    const quiet = { log: () => undefined, warn: () => undefined };
    deliveryHandler(['whsec_x'], 1024, quiet)(req as any, res as any);
    for (let i = 0; i < 4; i++) req.emit('data', Buffer.alloc(512));
    req.emit('end');
    flushed?.();
    expect(heads).toEqual([413]);
    expect(req.destroyed).toBe(true);
  });

  it('answers 413 to an oversized body (sent in many chunks) and keeps serving signed deliveries', async () => {
    const port = await freePort();
    const secret = 'whsec_example-receiver-e2e';
    const proc = spawn(process.execPath, ['-r', './scripts/train-text/register.js', 'examples/webhook-receiver/receiver.ts'], {
      cwd: ROOT,
      env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (out += d));
    const exited = new Promise((r) => proc.once('exit', r));
    try {
      await eventually(async () => (out.includes('webhook receiver on') ? true : proc.exitCode !== null ? false : undefined), 'the receiver listening');
      expect(proc.exitCode).toBeNull();
      const big = await postChunked(port, 40); // 2.5 MiB, over its 1 MiB limit
      expect(big.status === 413 || big.error === 'ECONNRESET' || big.error === 'EPIPE').toBe(true);

      const body = JSON.stringify({ id: 'evt_example', type: 'decision.created', createdAt: new Date().toISOString(), data: { id: 'dec_example' } });
      const post = (signature: string) =>
        fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { [SIGNATURE_HEADER]: signature, 'content-type': 'application/json' }, body });
      const now = Math.floor(Date.now() / 1000);
      expect((await post(signPayload(secret, body, now))).status).toBe(200);
      expect((await post(signPayload('whsec_another', body, now))).status).toBe(401);
      expect({ exitCode: proc.exitCode, out }).toEqual({ exitCode: null, out: expect.not.stringMatching(/ERR_HTTP_HEADERS_SENT/) });
    } finally {
      proc.kill('SIGTERM');
      await exited;
    }
  });
});
