import { EventEnvelope } from '@cds/events';
import { ApiClient, RunningService, startService, tempDataDir } from '@cds/testing';
import { DeploymentLog, eventually, TestReceiver } from './webhook-test-receiver';

jest.setTimeout(90_000);

const attemptsOf = async (admin: ApiClient, webhookId: string, eventId?: string) => {
  const r = await admin.get(`/v1/webhooks/${webhookId}/deliveries?limit=1000`);
  expect(r.status).toBe(200);
  return (r.body.deliveries as any[]).filter((d) => eventId === undefined || d.eventId === eventId);
};

describe('webhook retries: a receiver down then up, auto-disable', () => {
  let svc: RunningService;
  let admin: ApiClient;
  let log: DeploymentLog;

  beforeAll(async () => {
    svc = await startService({
      env: { EGRESS_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCHEDULE: '0,200ms,400ms,400ms,400ms,400ms', WEBHOOK_DISABLE_AFTER: '1s' },
    });
    admin = new ApiClient(svc.baseUrl, svc.adminKey);
    log = await DeploymentLog.open(svc);
  });
  afterAll(async () => {
    await log?.close();
    await svc?.stop();
  });

  const dataOf = (e: EventEnvelope) => e.data as Record<string, any>;

  /** A webhook at `receiver` (answering 500) that the dispatcher disabled; resolves once no delivery of it is pending. */
  async function autoDisabledWebhook(receiver: TestReceiver): Promise<{ id: string; secret: string; disabledReason: string }> {
    receiver.status = 500;
    const hook = (await admin.post('/v1/webhooks', { url: receiver.url, events: ['decision.created'] })).body;
    receiver.secret = hook.secret;
    await admin.post('/v1/check', { content: 'this will never arrive', policyId: 'default' });
    const disabled = await eventually(async () => {
      const r = await admin.get(`/v1/webhooks/${hook.id}`);
      return r.body.enabled === false ? r.body : undefined;
    }, 'the webhook disabled');
    // Its delivery is over: cancelled when its next attempt came due, or given up.
    await eventually(async () => {
      const attempts = await attemptsOf(admin, hook.id);
      const cancelled = (await log.events('deliveries')).some((e) => e.type === 'webhook.delivery.cancelled' && dataOf(e).webhookId === hook.id);
      return cancelled || attempts[0]?.nextAttemptAt === null ? true : undefined;
    }, 'its pending delivery cancelled');
    return { id: hook.id, secret: hook.secret, disabledReason: disabled.disabledReason };
  }

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

  it('disables a webhook that keeps failing for WEBHOOK_DISABLE_AFTER, says why (on the log too), and sends it nothing more', async () => {
    const receiver = await TestReceiver.start();
    const witness = await TestReceiver.start('/witness');
    try {
      const hook = await autoDisabledWebhook(receiver);
      expect(hook.disabledReason).toMatch(/failed since/);
      const attempts = await attemptsOf(admin, hook.id);
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      expect(attempts.every((a) => a.status === 'failed')).toBe(true);
      const event = await log.find(
        'webhooks',
        (e) => e.type === 'webhook.auto_disabled' && dataOf(e).webhookId === hook.id,
        'webhook.auto_disabled on the log',
      );
      expect(event.data).toEqual({
        webhookId: hook.id,
        reason: hook.disabledReason,
        failingSince: attempts.at(-1).timestamp,
        lastError: expect.stringContaining('500'),
      });

      // Disabled: a new event is not planned for it (its deliveries are on the log before
      // the witness gets it), nor sent to it (a later event reached the witness: the
      // dispatcher is past it).
      const w = (await admin.post('/v1/webhooks', { url: witness.url, events: ['decision.created'] })).body;
      witness.secret = w.secret;
      const received = receiver.received.length;
      const check = await admin.post('/v1/check', { content: 'while auto-disabled', policyId: 'default' });
      const seen = await witness.next(witness.ofType('decision.created', check.body.decisionId));
      const planned = (await log.events('deliveries')).filter((e) => e.type === 'webhook.delivery.scheduled' && dataOf(e).eventId === seen.body.id);
      expect(planned.map((e) => dataOf(e).webhookId)).toEqual([w.id]);
      const later = await admin.post('/v1/check', { content: 'later', policyId: 'default' });
      await witness.next(witness.ofType('decision.created', later.body.decisionId));
      expect(receiver.received.length).toBe(received);
      expect((await attemptsOf(admin, hook.id)).filter((a) => a.eventId === seen.body.id)).toEqual([]);

      // Enabling it clears the reason.
      const enabled = await admin.request('PATCH', `/v1/webhooks/${hook.id}`, { enabled: true });
      expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
    } finally {
      await receiver.close();
      await witness.close();
    }
  });

  it('does not disable a webhook turned back on at its first failure: the failures before count no more', async () => {
    const receiver = await TestReceiver.start();
    try {
      const hook = await autoDisabledWebhook(receiver);
      expect((await admin.request('PATCH', `/v1/webhooks/${hook.id}`, { enabled: true })).body.enabled).toBe(true);
      // The next delivery fails once, then is acknowledged.
      let answers = 0;
      receiver.respond = () => (answers++ === 0 ? 500 : 200);
      const check = await admin.post('/v1/check', { content: 'after turning it back on', policyId: 'default' });
      const ofCheck = receiver.ofType('decision.created', check.body.decisionId);
      const delivered = await receiver.next((r) => ofCheck(r) && r.answered === 200);
      expect(delivered.verified).toBe(true);
      const attempts = await eventually(async () => {
        const list = await attemptsOf(admin, hook.id, delivered.body.id);
        return list.some((a) => a.status === 'succeeded') ? list : undefined;
      }, 'the delivery recorded');
      expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
        [2, 'succeeded'],
        [1, 'failed'],
      ]);
      expect((await admin.get(`/v1/webhooks/${hook.id}`)).body).toMatchObject({ enabled: true, disabledReason: null });
      expect(receiver.received.filter(ofCheck).map((r) => r.answered)).toEqual([500, 200]);
    } finally {
      await receiver.close();
    }
  });

  it.each([
    ['disabled (PATCH enabled=false)', 'webhook_disabled'],
    ['deleted', 'webhook_deleted'],
  ])('cancels the pending retries of a webhook %s, sending nothing more', async (_what, reason) => {
    const receiver = await TestReceiver.start();
    try {
      const hook = (await admin.post('/v1/webhooks', { url: receiver.url, events: ['decision.created'] })).body;
      receiver.secret = hook.secret;
      // The first attempt is held until the webhook is changed, then fails: its retry
      // comes due after the change.
      let arrived!: () => void;
      const arrival = new Promise<void>((r) => (arrived = r));
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      receiver.respond = () => (arrived(), released.then(() => 503));
      await admin.post('/v1/check', { content: `cancelled when ${reason}`, policyId: 'default' });
      await arrival;
      const change =
        reason === 'webhook_deleted'
          ? await admin.delete(`/v1/webhooks/${hook.id}`)
          : await admin.request('PATCH', `/v1/webhooks/${hook.id}`, { enabled: false });
      expect(change.status).toBe(200);
      release();

      const cancelled = await log.find('deliveries', (e) => e.type === 'webhook.delivery.cancelled' && dataOf(e).webhookId === hook.id, 'the retry cancelled');
      expect(dataOf(cancelled).reason).toBe(reason);
      const ofDelivery = (await log.events('deliveries')).filter((e) => dataOf(e).deliveryId === dataOf(cancelled).deliveryId);
      expect(ofDelivery.map((e) => [e.type, dataOf(e).attempt ?? null, dataOf(e).status ?? null])).toEqual([
        ['webhook.delivery.scheduled', null, null],
        ['webhook.delivery.attempted', 1, 'failed'],
        ['webhook.delivery.cancelled', null, null],
      ]);
      expect(receiver.received.map((r) => r.answered)).toEqual([503]);
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
