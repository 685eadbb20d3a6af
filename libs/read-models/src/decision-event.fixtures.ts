import { DecisionCreatedV1, decisionCreatedV1ToV2, DomainEvent, envelope } from '@cds/events';

/** A `decision.created` (v2, as the log holds it) for the read-model specs of both adapters:
 * a text under the default policy, allowed unless `over` says otherwise, `safe` and
 * `flagged` following its action; `when` (ISO 8601) is the event's time, else now. */
export function decisionCreated(tenantId: string, id: string, over: Partial<DecisionCreatedV1> = {}, when?: string): DomainEvent {
  const action = over.action ?? 'allow';
  return envelope(
    'decision.created',
    2,
    tenantId,
    id,
    decisionCreatedV1ToV2({
      decisionId: id,
      requestId: null,
      content: `content ${id}`,
      contentType: 'text',
      language: 'en',
      metadata: {},
      policyId: 'default',
      policyVersion: 0,
      provider: 'local',
      signals: { hate: 0.1 },
      categories: [{ category: 'hate', score: 0.1, threshold: 0.7, triggered: false }],
      action,
      safe: action === 'allow',
      flagged: action !== 'allow',
      latency: 0.1,
      cost: 0,
      ...over,
    }),
    when ? new Date(when) : undefined,
  );
}
