import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiClient, e2eMode, expectErrorBody, RunningService, startService } from '@cds/testing';
import { SIGNATURE_HEADER, verifySignature, WebhookSignatureError } from '@cds/webhooks';
import { eventually, TestReceiver } from './webhook-test-receiver';

const ALL_EVENTS = [
  'decision.created', 'decision.flagged', 'decision.blocked', 'agent.guardrail.blocked', 'agent.guardrail.approval_required',
  'moderation.completed', 'moderation.failed',
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

jest.setTimeout(60_000);

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

    it('DELETE answers 200 {id, deleted: true}; the webhook then answers 404 everywhere', async () => {
      const { id } = await register(sink.url, ['decision.created']);
      const r = await admin.delete(`/v1/webhooks/${id}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ id, deleted: true });
      for (const res of [
        await admin.get(`/v1/webhooks/${id}`), await admin.delete(`/v1/webhooks/${id}`), await admin.get(`/v1/webhooks/${id}/deliveries`),
        await admin.post(`/v1/webhooks/${id}/test`, { eventType: 'decision.created' }), await admin.request('PATCH', `/v1/webhooks/${id}`, { enabled: true }),
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
        await stranger.get(`/v1/webhooks/${id}`), await stranger.request('PATCH', `/v1/webhooks/${id}`, { enabled: false }),
        await stranger.post(`/v1/webhooks/${id}/test`, { eventType: 'decision.created' }), await stranger.get(`/v1/webhooks/${id}/deliveries`),
        await stranger.delete(`/v1/webhooks/${id}`),
      ]) {
        expect(res.status).toBe(404);
        expectErrorBody(res.body);
      }
      expect((await stranger.get('/v1/webhooks')).body).toEqual({ webhooks: [] });
      expect((await admin.get(`/v1/webhooks/${id}`)).body.enabled).toBe(true);
    });

    it('keeps the secret out of the log and the read models (sealed with AES-256-GCM)', async () => {
      const { secret } = await register(sink.url, ['decision.created']);
      if (e2eMode() !== 'embedded') return; // the distributed deployment keeps them in Kafka and Elasticsearch
      const files: string[] = [];
      const walk = (dir: string) => {
        for (const f of fs.readdirSync(dir, { withFileTypes: true })) (f.isDirectory() ? walk : (p: string) => files.push(p))(path.join(dir, f.name));
      };
      walk(svc.dataDir);
      expect(files.some((f) => f.includes(`${path.sep}log${path.sep}`))).toBe(true);
      for (const f of files) expect({ f, found: fs.readFileSync(f).includes(secret) }).toEqual({ f, found: false });
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
      expect(got.body).toEqual({ id: expect.stringMatching(/^evt_/), type: 'decision.created', createdAt: expect.any(String), data: expect.objectContaining({ id: check.body.decisionId, action: check.body.action, safe: check.body.safe }) });
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers[SIGNATURE_HEADER]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

      const listed = await eventually(async () => {
        const r = await admin.get(`/v1/webhooks/${hook.id}/deliveries`);
        return r.body.deliveries.find((d: any) => d.eventId === got.body.id);
      }, 'the attempt in the deliveries list');
      expect(listed).toMatchObject({ status: 'succeeded', responseCode: 200, attempt: 1, eventType: 'decision.created', error: null, nextAttemptAt: null, url: receiver.url });
      expect(typeof listed.durationMs).toBe('number');
      expect(Number.isNaN(Date.parse(listed.timestamp))).toBe(false);
    });

    it('delivers a blocked decision as decision.created and decision.blocked', async () => {
      await admin.post('/v1/policies', { policyId: 'block-all', yamlContent: 'name: block all\ncategories:\n  violence:\n    threshold: 0\n    action: block\n' });
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
      expect(got.body.data).toMatchObject({ id: r.body.decisionId, decisionId: r.body.decisionId, action: 'block', riskScore: r.body.riskScore, requiresApproval: true });
    });

    it('the shipped verifier rejects a tampered body, a wrong secret and a stale timestamp', async () => {
      const check = await admin.post('/v1/check', { content: 'verify me', policyId: 'default' });
      const got = await receiver.next(receiver.ofType('decision.created', check.body.decisionId));
      const header = got.headers[SIGNATURE_HEADER];
      const t = Number(/t=(\d+)/.exec(String(header))![1]);
      expect(signatureFailure(() => verifySignature({ header, rawBody: got.rawBody, secret: hook.secret }))).toBeNull();
      expect(signatureFailure(() => verifySignature({ header, rawBody: got.rawBody.replace('"decision.created"', '"decision.blocked"'), secret: hook.secret }))).toBe('signature_mismatch');
      expect(signatureFailure(() => verifySignature({ header, rawBody: got.rawBody, secret: 'whsec_not-the-secret' }))).toBe('signature_mismatch');
      expect(signatureFailure(() => verifySignature({ header, rawBody: got.rawBody, secret: hook.secret, nowSeconds: t + 301 }))).toBe('timestamp_outside_tolerance');

      // And the receiver, verifying with it, answers 401 to a replayed header on a tampered body.
      const tampered = await fetch(receiver.url, { method: 'POST', headers: { [SIGNATURE_HEADER]: String(header), 'content-type': 'application/json' }, body: got.rawBody + ' ' });
      expect(tampered.status).toBe(401);
    });

    it('PATCH enabled=false stops deliveries; enabling again resumes them', async () => {
      const { id } = await register(sink.url, ['decision.created']);
      const witness = await TestReceiver.start('/witness');
      try {
        const w = await register(witness.url, ['decision.created']);
        witness.secret = w.secret;
        expect((await admin.request('PATCH', `/v1/webhooks/${id}`, { enabled: false })).body.enabled).toBe(false);
        const check = await admin.post('/v1/check', { content: 'while disabled', policyId: 'default' });
        // The witness receiving the event means it was planned: the disabled webhook got no delivery.
        const seen = await witness.next(witness.ofType('decision.created', check.body.decisionId));
        const attempts = await admin.get(`/v1/webhooks/${id}/deliveries`);
        expect(attempts.body.deliveries.filter((d: any) => d.eventId === seen.body.id)).toEqual([]);

        await admin.request('PATCH', `/v1/webhooks/${id}`, { enabled: true });
        const again = await admin.post('/v1/check', { content: 'enabled again', policyId: 'default' });
        const delivered = await witness.next(witness.ofType('decision.created', again.body.decisionId));
        await eventually(async () => {
          const r = await admin.get(`/v1/webhooks/${id}/deliveries`);
          return r.body.deliveries.find((d: any) => d.eventId === delivered.body.id && d.status === 'succeeded');
        }, 'a delivery to the re-enabled webhook');
      } finally {
        await witness.close();
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
        return eventIds.every((id) => ids.includes(id)) && r.body.deliveries.length === receiver.received.filter((x) => x.verified).length ? r.body.deliveries : undefined;
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
        expect(listed[0]).toMatchObject({ eventId: got.body.id, eventType: 'agent.guardrail.approval_required', status: 'succeeded', responseCode: 200, attempt: 1, test: true });
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
