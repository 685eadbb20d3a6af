import { CURRENT_VERSION, decisionCreatedV1ToV2, DomainEvent, envelope } from '@cds/events';
import { deliveryIdOf, JOB_OUTCOME_TYPES, jobOf, testWebhookEvent, WEBHOOK_SOURCE_TYPES, webhookEventsOf } from './webhook-payloads';

const decision = (action: 'allow' | 'warn' | 'flag' | 'block') =>
  envelope(
    'decision.created',
    2,
    't1',
    'd1',
    decisionCreatedV1ToV2({
      decisionId: 'd1',
      requestId: null,
      content: 'secret words',
      contentType: 'text',
      language: 'en',
      metadata: {},
      policyId: 'default',
      policyVersion: 1,
      provider: 'local',
      signals: {},
      categories: [],
      action,
      safe: action === 'allow',
      flagged: action !== 'allow',
      latency: 1,
      cost: 0,
    }),
  ) as DomainEvent;

describe('webhookEventsOf', () => {
  it('turns a decision into decision.created, plus flagged or blocked by its action', () => {
    expect(webhookEventsOf(decision('allow')).map((e) => e.type)).toEqual(['decision.created']);
    expect(webhookEventsOf(decision('warn')).map((e) => e.type)).toEqual(['decision.created']);
    expect(webhookEventsOf(decision('flag')).map((e) => e.type)).toEqual(['decision.created', 'decision.flagged']);
    expect(webhookEventsOf(decision('block')).map((e) => e.type)).toEqual(['decision.created', 'decision.blocked']);
  });

  it('puts the subject id in data.id, keeps the content out, and gives stable, distinct ids', () => {
    const e = decision('block');
    const [created, blocked] = webhookEventsOf(e);
    expect(created.data.id).toBe('d1');
    expect(created.createdAt).toBe(e.occurredAt);
    expect(JSON.stringify(created)).not.toContain('secret words');
    expect(created.id).not.toBe(blocked.id);
    expect(webhookEventsOf(e)[0].id).toBe(created.id);
  });

  it('passes guardrail alerts on under their own type with the decision id as subject', () => {
    const alert = envelope('agent.guardrail.blocked', 1, 't1', 'g1', {
      decisionId: 'g1',
      projectId: 'p',
      kind: 'action_authorization',
      action: 'block',
      riskScore: 90,
      reasons: ['r'],
      categories: ['c'],
      requiresApproval: true,
    }) as DomainEvent;
    const [out] = webhookEventsOf(alert);
    expect(out).toMatchObject({ type: 'agent.guardrail.blocked', data: { id: 'g1', riskScore: 90, projectId: 'p' } });
  });

  it('turns finished batches into moderation.completed / moderation.failed', () => {
    const done = envelope('batch.completed', 1, 't1', 'b1', {
      batchId: 'b1',
      policyId: 'default',
      succeeded: 1,
      failed: 0,
      results: [{ id: 'i1', safe: true, action: 'allow' as const, decisionId: 'd9' }],
    }) as DomainEvent;
    expect(webhookEventsOf(done)[0]).toMatchObject({ type: 'moderation.completed', data: { id: 'b1', totalItems: 1, items: [{ id: 'i1' }] } });
    const failed = envelope('batch.failed', 1, 't1', 'b2', { batchId: 'b2', policyId: 'p', error: { code: 'X', message: 'm', details: '' } }) as DomainEvent;
    expect(webhookEventsOf(failed)[0]).toMatchObject({ type: 'moderation.failed', data: { id: 'b2', status: 'failed' } });
  });

  it('has nothing to deliver for other events', () => {
    expect(webhookEventsOf(envelope('key.revoked', 1, 't', 'k', { keyId: 'k', revokedBy: 'x' }) as DomainEvent)).toEqual([]);
  });

  it('names in WEBHOOK_SOURCE_TYPES exactly the event types it delivers (the dispatcher skips the rest unparsed)', () => {
    // enough data for every branch to build its payload
    const data = { decisionId: 'd', batchId: 'b', policyId: 'p', results: [], error: { code: 'X', message: 'm', details: '' } };
    const delivering = Object.keys(CURRENT_VERSION).filter(
      (type) => webhookEventsOf(envelope(type, CURRENT_VERSION[type as DomainEvent['type']], 't', 'k', data) as DomainEvent).length > 0,
    );
    expect(new Set(delivering)).toEqual(WEBHOOK_SOURCE_TYPES);
  });

  it('names in JOB_OUTCOME_TYPES exactly the event types jobOf finds a job in', () => {
    const data = { decisionId: 'd', batchId: 'b', policyId: 'p', results: [], error: { code: 'X', message: 'm', details: '' } };
    const jobs = Object.keys(CURRENT_VERSION).filter(
      (type) => jobOf(envelope(type, CURRENT_VERSION[type as DomainEvent['type']], 't', 'k', data) as DomainEvent) !== null,
    );
    expect(new Set(jobs)).toEqual(JOB_OUTCOME_TYPES);
    expect(jobOf(envelope('video.failed', 1, 't', 'd', data) as DomainEvent)).toEqual({ kind: 'video', id: 'd' });
    expect(jobOf(envelope('batch.completed', 1, 't', 'b', data) as unknown as DomainEvent)).toEqual({ kind: 'batch', id: 'b' });
  });
});

describe('test events and delivery ids', () => {
  it('marks test events and gives each a fresh id', () => {
    const a = testWebhookEvent('decision.blocked');
    expect(a).toMatchObject({ type: 'decision.blocked', data: { test: true } });
    expect(a.id).not.toBe(testWebhookEvent('decision.blocked').id);
  });

  it('derives one delivery id per event and target', () => {
    expect(deliveryIdOf('e', 'w1')).toBe(deliveryIdOf('e', 'w1'));
    expect(deliveryIdOf('e', 'w1')).not.toBe(deliveryIdOf('e', 'w2'));
    expect(deliveryIdOf('e1', 'w')).not.toBe(deliveryIdOf('e2', 'w'));
  });
});
