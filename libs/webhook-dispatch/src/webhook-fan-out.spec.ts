import { DomainEvent, envelope, envelopeHead, EventEnvelope } from '@cds/events';
import { BatchDoc, WebhookDoc, WebhookReadModels } from '@cds/read-models';
import { WebhookFanOut, WebhooksByTenant } from './webhook-fan-out';

const AT = '2026-03-01T12:00:00.000Z';

function webhook(tenantId: string, events: string[]): WebhookDoc {
  return {
    webhookId: `w-${tenantId}`,
    tenantId,
    url: 'https://receiver.example/hook',
    events,
    description: null,
    enabled: true,
    secretCiphertext: 'sealed',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    disabledReason: null,
    deletedAt: null,
  } as WebhookDoc;
}

/** The read models as the fan-out uses them: webhooks by tenant, batches by id; counts the reads. */
class Models {
  readonly webhookReads: string[] = [];
  constructor(
    private readonly webhooks: Record<string, WebhookDoc[]>,
    private readonly batches: Record<string, Partial<BatchDoc>> = {},
  ) {}
  async listWebhooks(tenantId: string): Promise<WebhookDoc[]> {
    this.webhookReads.push(tenantId);
    return this.webhooks[tenantId] ?? [];
  }
  async getBatch(_tenantId: string, batchId: string): Promise<BatchDoc | null> {
    return (this.batches[batchId] as BatchDoc) ?? null;
  }
}

const decision = (tenantId: string, id: string, action = 'block'): DomainEvent =>
  ({ ...envelope('decision.created', 2, tenantId, id, { decisionId: id, action, categories: [], metadata: {} }), occurredAt: AT }) as unknown as DomainEvent;
const batchDone = (tenantId: string, batchId: string): DomainEvent =>
  ({
    ...envelope('batch.completed', 1, tenantId, batchId, { batchId, policyId: 'default', results: [], succeeded: 0, failed: 0 }),
    occurredAt: AT,
  }) as unknown as DomainEvent;
const headOf = (e: EventEnvelope) => envelopeHead(JSON.stringify(e));

describe('WebhookFanOut', () => {
  it("keeps, on their heads alone, the events of tenants with webhooks and every job's outcome", async () => {
    const models = new Models({ t1: [webhook('t1', ['decision.blocked'])] });
    const fanOut = new WebhookFanOut(models as unknown as WebhookReadModels, [0], async () => false);
    const events = [decision('t1', 'd1'), decision('t2', 'd2'), decision('t2', 'd3'), batchDone('t2', 'b1')];
    const cache: WebhooksByTenant = new Map();

    // a type that makes no webhook event is skipped without reading its tenant's webhooks
    const decided = envelope('guardrail.decided', 1, 't3', 'g1', { decisionId: 'g1' });
    const keep = await fanOut.mayDeliver([...events.map(headOf), null, headOf(decided)], cache);
    expect(keep).toEqual([true, false, false, true, true, false]);
    expect(models.webhookReads.sort()).toEqual(['t1', 't2']); // once per tenant

    // planning the kept events reads no tenant's webhooks again
    const { scheduled } = await fanOut.plan([events[0]], new Date(AT), cache);
    expect(scheduled.map((s) => [s.tenantId, s.data.webhookId, s.data.eventType])).toEqual([['t1', 'w-t1', 'decision.blocked']]);
    expect(models.webhookReads).toHaveLength(2);
  });

  it('plans nothing for the events it would skip: skipping them loses no delivery', async () => {
    const models = new Models({ t1: [webhook('t1', ['decision.created', 'decision.blocked'])] }, { b1: { batchId: 'b1' } });
    const fanOut = new WebhookFanOut(models as unknown as WebhookReadModels, [0], async () => false);
    const events = [decision('t2', 'd2'), decision('t3', 'd3', 'allow'), decision('t1', 'd1')];
    const keep = await fanOut.mayDeliver(events.map(headOf), new Map());
    const skipped = events.filter((_, i) => !keep[i]);
    expect(skipped).toHaveLength(2);
    expect((await fanOut.plan(skipped, new Date(AT))).scheduled).toEqual([]);
    expect(
      (
        await fanOut.plan(
          events.filter((_, i) => keep[i]),
          new Date(AT),
        )
      ).scheduled,
    ).toHaveLength(2);
  });
});
