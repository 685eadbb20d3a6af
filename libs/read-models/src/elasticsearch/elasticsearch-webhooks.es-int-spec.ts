import { Client } from '@elastic/elasticsearch';
import { DeliveryAttemptedV1, DomainEvent, envelope, Topic } from '@cds/events';
import { ProjectedEvent } from '../read-models.port';
import { ElasticsearchReadModels } from './elasticsearch-read-models.adapter';
import { indexName } from './es-index-layout';
import { deletePrefix, ES_URL, openRm, QUIET, uniquePrefix } from './es-test-kit';

/** The cases of sqlite-webhooks.int-spec.ts (the WebhookReadModels contract) on a real node.
 * The cases also replay batches through stale instances: opened before anything was
 * applied, their in-memory positions are empty, so their writes reach the node (as after a
 * crash between a batch's documents and its positions). An instance skips what it applied
 * itself, so each replay of older events after newer ones takes an unused one. */
const prefixes: string[] = [];
const opened: ElasticsearchReadModels[] = [];
async function open(staleCount = 0): Promise<{ rm: ElasticsearchReadModels; stale: ElasticsearchReadModels[]; prefix: string }> {
  const prefix = uniquePrefix();
  prefixes.push(prefix);
  const rm = await openRm(prefix);
  const stale = await Promise.all(Array.from({ length: staleCount }, () => openRm(prefix)));
  opened.push(rm, ...stale);
  return { rm, stale, prefix };
}
afterAll(async () => {
  for (const rm of opened) await rm.close();
  for (const p of prefixes) await deletePrefix(p);
});

const offsets = new Map<string, number>();
const at = (topic: Topic, event: DomainEvent): ProjectedEvent => {
  const offset = offsets.get(topic) ?? 0;
  offsets.set(topic, offset + 1);
  return { topic, partition: 0, offset, event };
};
const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

const created = (tenantId: string, webhookId: string, when = t(0)) =>
  envelope(
    'webhook.created',
    1,
    tenantId,
    webhookId,
    {
      webhookId,
      url: `https://example.com/${webhookId}`,
      events: ['decision.created' as const],
      description: null,
      enabled: true,
      secretCiphertext: 'v1.iv.tag.ct',
      createdBy: 'key:k',
    },
    when,
  );
const scheduled = (tenantId: string, deliveryId: string, webhookId: string, dueAt: string) =>
  envelope('webhook.delivery.scheduled', 1, tenantId, deliveryId, {
    deliveryId,
    webhookId,
    target: { kind: 'webhook' as const, webhookId },
    eventId: `evt-${deliveryId}`,
    eventType: 'decision.created',
    payload: { id: `evt-${deliveryId}` },
    dueAt,
  });
const attempted = (
  tenantId: string,
  deliveryId: string,
  webhookId: string,
  attempt: number,
  ok: boolean,
  when: Date,
  next: string | null = null,
  test = false,
) =>
  envelope(
    'webhook.delivery.attempted',
    1,
    tenantId,
    deliveryId,
    {
      deliveryId,
      webhookId,
      eventId: `evt-${deliveryId}`,
      eventType: 'decision.created',
      attempt,
      status: ok ? 'succeeded' : 'failed',
      url: 'https://example.com',
      responseCode: ok ? 200 : 503,
      durationMs: 5,
      error: ok ? null : 'receiver answered 503',
      nextAttemptAt: next,
      test,
    } satisfies DeliveryAttemptedV1,
    when,
  );
const accepted = (tenantId: string, batchId: string) =>
  envelope('batch.accepted', 1, tenantId, batchId, {
    batchId,
    policyId: 'default',
    items: [
      { id: 'i1', content: 'x' },
      { id: 'i2', content: 'y' },
    ],
    webhookUrl: 'https://example.com/b',
    signingWebhookId: null,
    secretCiphertext: 'v1.a.b.c',
    acceptedBy: 'key:k',
  });

describe('ElasticsearchReadModels: webhooks, deliveries, batches (real node)', () => {
  it('keeps webhooks per tenant, applies changes in log order, and a deletion survives a replay', async () => {
    const {
      rm,
      stale: [stale, late],
    } = await open(2);
    const batch = [
      at('webhooks', created('t1', 'w1')),
      at('webhooks', created('t1', 'w2', t(1))),
      at('webhooks', created('t2', 'w3')),
      at('webhooks', envelope('webhook.updated', 1, 't1', 'w1', { webhookId: 'w1', changes: { enabled: false, description: 'off' }, updatedBy: 'k' })),
      at(
        'webhooks',
        envelope('webhook.auto_disabled', 1, 't1', 'w2', { webhookId: 'w2', reason: 'failing', failingSince: t(0).toISOString(), lastError: null }),
      ),
      at('webhooks', envelope('webhook.deleted', 1, 't2', 'w3', { webhookId: 'w3', deletedBy: 'k' })),
    ];
    await rm.applyBatch(batch);
    await rm.applyBatch(batch); // a replay changes nothing
    await stale.applyBatch(batch); // reaches the node: creations 409, patches not newer than the stored documents
    expect(await rm.getWebhook('t1', 'w1')).toMatchObject({
      enabled: false,
      description: 'off',
      url: 'https://example.com/w1',
      secretCiphertext: 'v1.iv.tag.ct',
    });
    expect(await rm.getWebhook('t1', 'w2')).toMatchObject({ enabled: false, disabledReason: 'failing' });
    expect((await rm.listWebhooks('t1')).map((w) => w.webhookId)).toEqual(['w1', 'w2']);
    expect(await rm.getWebhook('t2', 'w3')).toBeNull();
    expect(await rm.listWebhooks('t2')).toEqual([]);
    expect(await rm.getWebhook('t2', 'w1')).toBeNull();

    // Re-enabling clears the reason; an older event arriving late changes nothing.
    const enable = at('webhooks', envelope('webhook.updated', 1, 't1', 'w2', { webhookId: 'w2', changes: { enabled: true }, updatedBy: 'k' }));
    await rm.applyBatch([enable]);
    await rm.applyBatch([batch[4]]);
    await late.applyBatch([batch[4]]); // reaches the node: older than the stored document
    expect(await rm.getWebhook('t1', 'w2')).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('tracks deliveries from scheduled to delivered, lists pending ones soonest first, attempts newest first', async () => {
    const {
      rm,
      stale: [staleFirst, staleLast],
    } = await open(2);
    const first = [
      at('deliveries', scheduled('t1', 'd1', 'w1', t(10).toISOString())),
      at('deliveries', scheduled('t1', 'd2', 'w1', t(5).toISOString())),
      at('deliveries', scheduled('t2', 'd3', 'w9', t(7).toISOString())),
      at('deliveries', attempted('t1', 'd1', 'w1', 1, false, t(10), t(20).toISOString())),
      at('deliveries', attempted('t1', 'd2', 'w1', 1, true, t(11))),
    ];
    await rm.applyBatch(first);
    expect((await rm.listPendingDeliveries(10)).map((d) => [d.deliveryId, d.attempts, d.nextAttemptAt])).toEqual([
      ['d3', 0, t(7).toISOString()],
      ['d1', 1, t(20).toISOString()],
    ]);
    expect(await rm.getDelivery('t1', 'd2')).toMatchObject({ state: 'succeeded', attempts: 1, nextAttemptAt: null });
    expect(await rm.getDelivery('t2', 'd1')).toBeNull();

    const last = [
      at('deliveries', attempted('t1', 'd1', 'w1', 2, false, t(20))),
      at(
        'deliveries',
        envelope('webhook.delivery.cancelled', 1, 't2', 'd3', {
          deliveryId: 'd3',
          webhookId: 'w9',
          eventId: 'evt-d3',
          eventType: 'decision.created',
          reason: 'webhook_deleted' as const,
        }),
      ),
    ];
    await rm.applyBatch(last);
    await rm.applyBatch(last);
    await staleLast.applyBatch(last);
    await staleFirst.applyBatch(first); // reaches the node, after the newer events: re-scheduling and older attempts change nothing
    expect(await rm.listPendingDeliveries(10)).toEqual([]);
    expect(await rm.getDelivery('t1', 'd1')).toMatchObject({ state: 'failed', attempts: 2, lastError: 'receiver answered 503' });
    expect(await rm.getDelivery('t2', 'd3')).toMatchObject({ state: 'cancelled' });

    const attempts = await rm.listDeliveryAttempts('t1', 'w1', 10);
    expect(attempts.map((a) => [a.deliveryId, a.attempt, a.status])).toEqual([
      ['d1', 2, 'failed'],
      ['d2', 1, 'succeeded'],
      ['d1', 1, 'failed'],
    ]);
    expect(attempts[2]).toMatchObject({ responseCode: 503, nextAttemptAt: t(20).toISOString(), timestamp: t(10).toISOString(), eventId: 'evt-d1' });
    expect(attempts[2]).not.toHaveProperty('pos'); // the position it is sorted by stays internal
    expect(await rm.listDeliveryAttempts('t1', 'w1', 1)).toHaveLength(1);
    expect(await rm.listDeliveryAttempts('t2', 'w1', 10)).toEqual([]);
  });

  it('says since when a webhook has been failing: the first failure after its last success', async () => {
    const { rm } = await open();
    expect(await rm.webhookFailingSince('t1', 'w1')).toBeNull();
    await rm.applyBatch([
      at('deliveries', attempted('t1', 'a', 'w1', 1, false, t(1), t(2).toISOString())),
      at('deliveries', attempted('t1', 'b', 'w1', 1, true, t(2))),
      at('deliveries', attempted('t1', 'c', 'w1', 1, false, t(3), t(9).toISOString())),
      at('deliveries', attempted('t1', 'c', 'w1', 2, false, t(4), t(9).toISOString())),
    ]);
    expect(await rm.webhookFailingSince('t1', 'w1')).toBe(t(3).toISOString());
    expect(await rm.webhookFailingSince('t2', 'w1')).toBeNull();
    await rm.applyBatch([at('deliveries', attempted('t1', 'test-1', 'w1', 1, true, t(5), null, true))]);
    expect(await rm.webhookFailingSince('t1', 'w1')).toBeNull();
    // A test delivery is listed but has no delivery state of its own.
    expect(await rm.getDelivery('t1', 'test-1')).toBeNull();
  });

  it('keeps async batches from processing to completed or failed, per tenant', async () => {
    const {
      rm,
      stale: [stale],
    } = await open(1);
    const batch = [
      at('jobs', accepted('t1', 'b1')),
      at('jobs', accepted('t1', 'b2')),
      at(
        'jobs',
        envelope('batch.completed', 1, 't1', 'b1', {
          batchId: 'b1',
          policyId: 'default',
          succeeded: 1,
          failed: 1,
          results: [
            { id: 'i1', safe: true, action: 'allow' as const, decisionId: 'd1' },
            { id: 'i2', error: { code: 'CONTENT_TOO_LONG', message: 'm', details: '' } },
          ],
        }),
      ),
      at(
        'jobs',
        envelope('batch.failed', 1, 't1', 'b2', { batchId: 'b2', policyId: 'default', error: { code: 'POLICY_NOT_FOUND', message: 'm', details: '' } }),
      ),
    ];
    await rm.applyBatch(batch);
    await rm.applyBatch(batch);
    await stale.applyBatch(batch); // reaches the node: acceptances 409, completions not newer than the stored documents
    expect(await rm.getBatch('t1', 'b1')).toMatchObject({ status: 'completed', totalItems: 2, succeeded: 1, failed: 1, results: [{ id: 'i1' }, { id: 'i2' }] });
    expect(await rm.getBatch('t1', 'b2')).toMatchObject({ status: 'failed', error: { code: 'POLICY_NOT_FOUND' }, results: null });
    expect(await rm.getBatch('t2', 'b1')).toBeNull();
  });
});

describe('ElasticsearchReadModels: webhook indices and generations (real node)', () => {
  it('rebuilds the webhook, delivery and batch models into a new generation, served from its promote on', async () => {
    const { rm, prefix } = await open();
    await rm.applyBatch([at('webhooks', created('t1', 'old'))]);
    const next = await ElasticsearchReadModels.createGeneration({ node: ES_URL, indexPrefix: prefix, logger: QUIET });
    opened.push(next);
    await next.applyBatch([
      at('webhooks', created('t1', 'new')),
      at('deliveries', scheduled('t1', 'dn', 'new', t(1).toISOString())),
      at('jobs', accepted('t1', 'bn')),
    ]);
    expect(await rm.getWebhook('t1', 'new')).toBeNull();
    expect(await rm.listPendingDeliveries(10)).toEqual([]);

    await next.promote();
    expect((await rm.listWebhooks('t1')).map((w) => w.webhookId)).toEqual(['new']);
    expect((await rm.listPendingDeliveries(10)).map((d) => d.deliveryId)).toEqual(['dn']);
    expect(await rm.getBatch('t1', 'bn')).toMatchObject({ status: 'processing' });
  });

  it('gives a served generation made before the webhook models their indices, strict and behind aliases', async () => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const first = await openRm(prefix);
    opened.push(first);
    const gen = first.generation();
    const client = new Client({ node: ES_URL });
    try {
      // As a generation created before these document types existed.
      await client.indices.delete({ index: ['webhooks', 'deliveries', 'delivery_attempts', 'batches'].map((type) => `${prefix}-${type}-${gen}`) });
      const warnings: string[] = [];
      const reopened = await ElasticsearchReadModels.open({ node: ES_URL, indexPrefix: prefix, logger: { ...QUIET, warn: (m) => warnings.push(m) } });
      opened.push(reopened);
      expect(reopened.generation()).toBe(gen);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('webhooks, deliveries, delivery_attempts, batches');

      await reopened.applyBatch([at('webhooks', created('t1', 'w1')), at('deliveries', attempted('t1', 'x', 'w1', 1, false, t(1)))]);
      expect((await first.listWebhooks('t1')).map((w) => w.webhookId)).toEqual(['w1']);
      expect(await first.webhookFailingSince('t1', 'w1')).toBe(t(1).toISOString());
      const mapping = await client.indices.getMapping({ index: indexName(prefix, 'webhooks', gen) });
      expect(mapping[indexName(prefix, 'webhooks', gen)].mappings.dynamic).toBe('strict');
    } finally {
      await client.close();
    }
  });
});
