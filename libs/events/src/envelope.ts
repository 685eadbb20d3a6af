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
}

export function envelope<T extends string, D>(type: T, version: number, tenantId: string, key: string, data: D, now: Date = new Date()): EventEnvelope<T, D> {
  return { id: randomUUID(), type, version, occurredAt: now.toISOString(), tenantId, key, data };
}
