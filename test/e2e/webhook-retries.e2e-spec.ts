import { ApiClient, RunningService, startService, tempDataDir } from '@cds/testing';
import { eventually, TestReceiver } from './webhook-test-receiver';

jest.setTimeout(90_000);

const attemptsOf = async (admin: ApiClient, webhookId: string, eventId?: string) => {
  const r = await admin.get(`/v1/webhooks/${webhookId}/deliveries?limit=1000`);
  expect(r.status).toBe(200);
  return (r.body.deliveries as any[]).filter((d) => eventId === undefined || d.eventId === eventId);
};

describe('webhook retries: a receiver down then up, auto-disable', () => {
  let svc: RunningService;
  let admin: ApiClient;

  beforeAll(async () => {
    svc = await startService({ env: { EGRESS_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCHEDULE: '0,200ms,400ms,400ms,400ms,400ms', WEBHOOK_DISABLE_AFTER: '1s' } });
    admin = new ApiClient(svc.baseUrl, svc.adminKey);
  });
  afterAll(() => svc?.stop());

  it('retries on the schedule until the receiver is back, recording every attempt', async () => {
    const receiver = await TestReceiver.start();
    try {
      const hook = (await admin.post('/v1/webhooks', { url: receiver.url, events: ['decision.created'] })).body;
      receiver.secret = hook.secret;
      receiver.status = 503;
      const check = await admin.post('/v1/check', { content: 'deliver me eventually', policyId: 'default' });
      const failing = receiver.ofType('decision.created', check.body.decisionId);
      await eventually(async () => (receiver.received.filter(failing).length >= 2 ? true : undefined), 'two failed attempts');
      receiver.status = 200;
      await receiver.next((r) => failing(r) && r.answered === 200);

      const attempts = await eventually(async () => {
        const list = await attemptsOf(admin, hook.id);
        return list.some((a) => a.status === 'succeeded') ? list : undefined;
      }, 'the successful attempt recorded');
      const oldestFirst = [...attempts].reverse();
      expect(oldestFirst.map((a) => a.attempt)).toEqual(oldestFirst.map((_, i) => i + 1));
      expect(oldestFirst.at(-1)).toMatchObject({ status: 'succeeded', responseCode: 200, nextAttemptAt: null, error: null });
      for (const failed of oldestFirst.slice(0, -1)) {
        expect(failed).toMatchObject({ status: 'failed', responseCode: 503, error: expect.stringContaining('503') });
        expect(Date.parse(failed.nextAttemptAt)).toBeGreaterThan(Date.parse(failed.timestamp));
      }
      expect(new Set(attempts.map((a) => a.eventId)).size).toBe(1);
      // Same event id and the same payload on every attempt; no attempt after the 2xx.
      const bodies = receiver.received.filter(failing);
      expect(new Set(bodies.map((b) => b.body.id)).size).toBe(1);
      expect(bodies.filter((b) => b.answered === 200)).toHaveLength(1);
      expect(bodies.every((b) => b.verified)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('disables a webhook that keeps failing for WEBHOOK_DISABLE_AFTER, and says why', async () => {
    const receiver = await TestReceiver.start();
    receiver.status = 500;
    try {
      const hook = (await admin.post('/v1/webhooks', { url: receiver.url, events: ['decision.created'] })).body;
      await admin.post('/v1/check', { content: 'this will never arrive', policyId: 'default' });
      const disabled = await eventually(async () => {
        const r = await admin.get(`/v1/webhooks/${hook.id}`);
        return r.body.enabled === false ? r.body : undefined;
      }, 'the webhook disabled');
      expect(disabled.disabledReason).toMatch(/failed since/);
      const attempts = await attemptsOf(admin, hook.id);
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      expect(attempts.every((a) => a.status === 'failed')).toBe(true);

      // Disabled: a new event is not delivered to it; enabling it clears the reason.
      const enabled = await admin.request('PATCH', `/v1/webhooks/${hook.id}`, { enabled: true });
      expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
    } finally {
      await receiver.close();
    }
  });
});

describe('webhook delivery across a SIGKILL of the service', () => {
  it('loses no pending delivery and does not send again what was acknowledged', async () => {
    const dataDir = tempDataDir('webhook-kill');
    const env = { EGRESS_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCHEDULE: '0,300ms,600ms,1s,1s,1s,1s,1s,1s,1s,1s,1s' };
    const down = await TestReceiver.start('/down');
    const up = await TestReceiver.start('/up');
    let svc = await startService({ dataDir, env });
    try {
      const admin = new ApiClient(svc.baseUrl, svc.adminKey);
      const a = (await admin.post('/v1/webhooks', { url: down.url, events: ['decision.created'] })).body;
      const b = (await admin.post('/v1/webhooks', { url: up.url, events: ['decision.created'] })).body;
      down.secret = a.secret;
      up.secret = b.secret;
      down.status = 503;
      const check = await admin.post('/v1/check', { content: 'survive a crash', policyId: 'default' });
      const ofCheck = up.ofType('decision.created', check.body.decisionId);
      // Acknowledged by `up` and recorded; `down` has failed at least once and is waiting for a retry.
      await eventually(async () => ((await attemptsOf(admin, b.id)).some((x) => x.status === 'succeeded') ? true : undefined), 'the 2xx recorded');
      await eventually(async () => ((await attemptsOf(admin, a.id)).some((x) => x.status === 'failed') ? true : undefined), 'a failed attempt recorded');

      await svc.stop('SIGKILL');
      down.status = 200;
      svc = await startService({ dataDir, env });
      const after = new ApiClient(svc.baseUrl, svc.adminKey);

      const arrived = await down.next((r) => down.ofType('decision.created', check.body.decisionId)(r) && r.answered === 200);
      expect(arrived.verified).toBe(true);
      // A fresh event after the restart reaches `up`: the dispatcher is past its recovery.
      const later = await after.post('/v1/check', { content: 'after the restart', policyId: 'default' });
      await up.next(up.ofType('decision.created', later.body.decisionId));
      expect(up.received.filter(ofCheck)).toHaveLength(1);

      const attempts = await eventually(async () => {
        const list = await attemptsOf(after, a.id, arrived.body.id);
        return list.some((x) => x.status === 'succeeded') ? list : undefined;
      }, 'the retried delivery recorded after the restart');
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      const oldestFirst = [...attempts].reverse();
      expect(oldestFirst.map((x) => x.attempt)).toEqual(oldestFirst.map((_, i) => i + 1));
      expect(oldestFirst.filter((x) => x.status === 'succeeded')).toHaveLength(1);
      const ackedBefore = up.received.find(ofCheck)!.body.id;
      expect((await attemptsOf(after, b.id, ackedBefore)).map((x) => [x.attempt, x.status])).toEqual([[1, 'succeeded']]);
    } finally {
      await svc.stop();
      await down.close();
      await up.close();
    }
  });
});
