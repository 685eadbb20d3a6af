import { randomUUID } from 'node:crypto';

/** The streams of the log. The key of an event is its aggregate id, so order per
 * aggregate holds in every adapter. */
export const TOPICS = ['decisions', 'policies', 'guardrails', 'webhooks', 'deliveries', 'jobs', 'keys'] as const;
export type Topic = (typeof TOPICS)[number];

export interface EventEnvelope<T extends string = string, D = unknown> {
  id: string;
  type: T;
  version: number;
  occurredAt: string;
  tenantId: string;
  key: string;
  data: D;
  /** The HTTP request that caused it (`x-request-id`), when there was one. */
  requestId?: string;
  /** The trace it was written in (W3C `traceparent`), when tracing was on: the work that
   * follows it (a job) continues that trace. Optional and free of meaning for replay, so
   * no new version of any type: events written without it read as before. */
  traceparent?: string;
}

export function envelope<T extends string, D>(type: T, version: number, tenantId: string, key: string, data: D, now: Date = new Date()): EventEnvelope<T, D> {
  return { id: randomUUID(), type, version, occurredAt: now.toISOString(), tenantId, key, data };
}
