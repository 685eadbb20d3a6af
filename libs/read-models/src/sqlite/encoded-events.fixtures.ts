import { DecisionCreatedV1, EventEnvelope, Topic } from '@cds/events';
import type { EncodedEvent } from '@cds/event-log';

/** A v1 decision (signals not yet grouped by provider), as older logs hold it. */
export const V1: DecisionCreatedV1 = {
  decisionId: 'd1',
  requestId: 'r1',
  content: 'hello',
  contentType: 'text',
  language: 'en',
  metadata: { userId: 'u1' },
  policyId: 'default',
  policyVersion: 0,
  provider: 'local',
  signals: { hate: 0.123456789012345, spam: 0.9 },
  categories: [{ category: 'hate', score: 0.123456789012345, threshold: 0.7, triggered: false }],
  action: 'allow',
  safe: true,
  flagged: false,
  latency: 0.1,
  cost: 0,
};

/** An event as the log holds it; a string is stored as given (for unreadable ones). */
export const encode = (topic: Topic, offset: number, e: EventEnvelope | string): EncodedEvent => ({
  topic,
  partition: 0,
  offset,
  json: typeof e === 'string' ? e : JSON.stringify(e),
});
