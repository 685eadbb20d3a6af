import { ApiClient, expectErrorBody, RunningService, startService } from '@cds/testing';
import { eventually, TestReceiver } from './webhook-test-receiver';

describe('batches: synchronous and asynchronous checks', () => {
  let svc: RunningService;
  let admin: ApiClient;

  beforeAll(async () => {
    svc = await startService({
      env: { EGRESS_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCHEDULE: '0,200ms,400ms', BATCH_MAX_ITEMS: '5', ASYNC_BATCH_MAX_ITEMS: '6' },
    });
    admin = new ApiClient(svc.baseUrl, svc.adminKey);
  });
  afterAll(() => svc?.stop());

  describe('POST /v1/batch/check', () => {
    it('checks every item and answers {id, safe, action, decisionId} in order; each decision is stored', async () => {
      const r = await admin.post('/v1/batch/check', {
        policyId: 'default',
        items: [
          { id: 'a', content: 'have a nice day' },
          { id: 'b', content: 'see you tomorrow', metadata: { source: 'chat' } },
          { id: 'c', content: 'thanks!' },
        ],
      });
      expect(r.status).toBe(200);
      expect(r.body.items.map((i: any) => i.id)).toEqual(['a', 'b', 'c']);
      for (const item of r.body.items) {
        expect(item).toEqual({
          id: item.id,
          safe: expect.any(Boolean),
          action: expect.stringMatching(/^(allow|warn|flag|block)$/),
          decisionId: expect.any(String),
        });
        const stored = await admin.get(`/v1/decisions/${item.decisionId}`);
        expect(stored.status).toBe(200);
        expect(stored.body).toMatchObject({ decisionId: item.decisionId, action: item.action, safe: item.safe, policyId: 'default' });
      }
      expect((await admin.get(`/v1/decisions/${r.body.items[1].decisionId}`)).body.metadata).toEqual({ source: 'chat' });
    });

    it('reports a bad item in its own result without failing the others', async () => {
      const r = await admin.post('/v1/batch/check', {
        policyId: 'default',
        items: [
          { id: 'ok', content: 'fine text' },
          { id: 'empty', content: '' },
          { id: 'video', content: 'x', contentType: 'video' },
          { id: 'lang', content: 'x', contentType: 'sound' },
        ],
      });
      expect(r.status).toBe(200);
      expect(r.body.items[0]).toMatchObject({ id: 'ok', decisionId: expect.any(String) });
      expect(r.body.items[1]).toEqual({
        id: 'empty',
        error: { code: 'VALIDATION_ERROR', message: expect.any(String), details: expect.stringContaining('content') },
      });
      expect(r.body.items[2]).toMatchObject({ id: 'video', error: { code: 'UNSUPPORTED_CONTENT_TYPE' } });
      expect(r.body.items[3]).toMatchObject({ id: 'lang', error: { code: 'VALIDATION_ERROR' } });
    });

    it('answers the first decisions for a batch sent again with the same Idempotency-Key', async () => {
      const body = {
        policyId: 'default',
        items: [
          { id: 'a', content: 'first item' },
          { id: 'b', content: 'second item' },
        ],
      };
      const first = await admin.post('/v1/batch/check', body, { 'Idempotency-Key': 'sync-batch-1' });
      const again = await admin.post('/v1/batch/check', body, { 'Idempotency-Key': 'sync-batch-1' });
      expect(again.body.items.map((i: any) => i.decisionId)).toEqual(first.body.items.map((i: any) => i.decisionId));
      const other = await admin.post('/v1/batch/check', body, { 'Idempotency-Key': 'sync-batch-2' });
      expect(other.body.items[0].decisionId).not.toBe(first.body.items[0].decisionId);
      const fresh = await admin.post('/v1/batch/check', body);
      expect(fresh.body.items[0].decisionId).not.toBe(first.body.items[0].decisionId);
    });

    it('refuses more than BATCH_MAX_ITEMS, malformed bodies and unknown policies', async () => {
      const items = Array.from({ length: 6 }, (_, i) => ({ id: `i${i}`, content: 'hello' }));
      const big = await admin.post('/v1/batch/check', { policyId: 'default', items });
      expect(big.status).toBe(422);
      expect(big.body.code).toBe('BATCH_TOO_LARGE');
      expect(big.body.details).toContain('5');
      expectErrorBody(big.body);
      for (const body of [
        { policyId: 'default', items: [] },
        { policyId: 'default' },
        { policyId: 'default', items: ['x'] },
        { policyId: 'default', items: [{ content: 'no id' }] },
        { items: [{ id: 'a', content: 'x' }] },
      ]) {
        expect((await admin.post('/v1/batch/check', body)).status).toBe(422);
      }
      const missing = await admin.post('/v1/batch/check', { policyId: 'no-such-policy', items: [{ id: 'a', content: 'x' }] });
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('POLICY_NOT_FOUND');
    });

    it('needs the checks scope', async () => {
      const reader = admin.withKey((await admin.post('/v1/keys', { name: 'r', scopes: ['decisions'] })).body.key);
      const r = await reader.post('/v1/batch/check', { policyId: 'default', items: [{ id: 'a', content: 'x' }] });
      expect(r.status).toBe(403);
      expect(
        (await reader.post('/v1/batch/check/async', { policyId: 'default', items: [{ id: 'a', content: 'x' }], webhookUrl: 'http://127.0.0.1:1/x' })).status,
      ).toBe(403);
    });
  });

  describe('POST /v1/batch/check/async', () => {
    it('answers {batchId, status, totalItems} and delivers the results signed to webhookUrl', async () => {
      const receiver = await TestReceiver.start('/batch');
      try {
        const r = await admin.post('/v1/batch/check/async', {
          policyId: 'default',
          webhookUrl: receiver.url,
          items: [
            { id: 'x1', content: 'good morning' },
            { id: 'x2', content: '' },
          ],
        });
        expect(r.status).toBe(202);
        expect(r.body).toMatchObject({ batchId: expect.any(String), status: 'processing', totalItems: 2, webhookSecret: expect.stringMatching(/^whsec_/) });
        receiver.secret = r.body.webhookSecret;
        const got = await receiver.next(receiver.ofType('moderation.completed', r.body.batchId));
        expect(got.verified).toBe(true);
        expect(got.body.data).toMatchObject({ id: r.body.batchId, batchId: r.body.batchId, status: 'completed', totalItems: 2, succeeded: 1, failed: 1 });
        expect(got.body.data.items[0]).toMatchObject({ id: 'x1', decisionId: expect.any(String) });
        expect(got.body.data.items[1]).toMatchObject({ id: 'x2', error: { code: 'VALIDATION_ERROR' } });

        const status = await eventually(async () => {
          const s = await admin.get(`/v1/batch/${r.body.batchId}`);
          return s.body.status === 'completed' ? s.body : undefined;
        }, 'the batch completed');
        expect(status).toMatchObject({ batchId: r.body.batchId, totalItems: 2, succeeded: 1, failed: 1, policyId: 'default' });
        expect(status.items).toEqual(got.body.data.items);
        expect((await admin.get(`/v1/decisions/${status.items[0].decisionId}`)).status).toBe(200);
      } finally {
        await receiver.close();
      }
    });

    it('signs with the registered webhook secret when webhookUrl is a registered webhook', async () => {
      const receiver = await TestReceiver.start('/registered');
      try {
        const hook = (await admin.post('/v1/webhooks', { url: receiver.url, events: ['decision.blocked'] })).body;
        receiver.secret = hook.secret;
        const r = await admin.post('/v1/batch/check/async', { policyId: 'default', webhookUrl: receiver.url, items: [{ id: 'only', content: 'hello' }] });
        expect(r.status).toBe(202);
        expect(r.body).toMatchObject({ signingWebhookId: hook.id });
        expect(r.body).not.toHaveProperty('webhookSecret');
        const got = await receiver.next(receiver.ofType('moderation.completed', r.body.batchId));
        expect(got.verified).toBe(true);
        const attempts = await eventually(async () => {
          const list = (await admin.get(`/v1/webhooks/${hook.id}/deliveries`)).body.deliveries;
          return list.length > 0 ? list : undefined;
        }, 'the delivery listed under the webhook');
        expect(attempts[0]).toMatchObject({ eventType: 'moderation.completed', status: 'succeeded' });
      } finally {
        await receiver.close();
      }
    });

    it('validates webhookUrl and size; another tenant cannot read the batch', async () => {
      const base = { policyId: 'default', items: [{ id: 'a', content: 'x' }] };
      expect((await admin.post('/v1/batch/check/async', { ...base, webhookUrl: 'http://169.254.169.254/' })).body.code).toBe('EGRESS_REFUSED');
      expect((await admin.post('/v1/batch/check/async', { ...base, webhookUrl: 'gopher://x' })).body.code).toBe('INVALID_WEBHOOK_URL');
      expect((await admin.post('/v1/batch/check/async', base)).status).toBe(422);
      const items = Array.from({ length: 7 }, (_, i) => ({ id: `i${i}`, content: 'hello' }));
      expect((await admin.post('/v1/batch/check/async', { ...base, items, webhookUrl: 'http://127.0.0.1:1/x' })).body.code).toBe('BATCH_TOO_LARGE');

      const accepted = await admin.post('/v1/batch/check/async', { ...base, webhookUrl: 'http://127.0.0.1:1/nobody' });
      expect(accepted.status).toBe(202);
      const stranger = admin.withKey((await admin.post('/v1/keys', { name: 's', scopes: ['checks'], tenantId: 'tenant-other' })).body.key);
      const r = await stranger.get(`/v1/batch/${accepted.body.batchId}`);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('BATCH_NOT_FOUND');
      expect((await admin.get('/v1/batch/00000000-0000-0000-0000-000000000000')).status).toBe(404);
    });
  });
});
