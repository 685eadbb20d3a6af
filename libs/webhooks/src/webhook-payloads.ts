/**
 * What a receiver gets: `{id, type, createdAt, data}` with `data.id` the subject's id.
 * Built from the source events on the log, so every retry (and every restart) sends the
 * same bytes' worth of content under the same `id`: receivers deduplicate on it.
 */
import { createHash, randomUUID } from 'node:crypto';
import { DomainEvent, WebhookEventType } from '@cds/events';

export interface WebhookPayload {
  id: string;
  type: WebhookEventType;
  createdAt: string;
  data: { id: string } & Record<string, unknown>;
}

/** The log event types `webhookEventsOf` turns into webhook events; every other type
 * gives none. */
export const WEBHOOK_SOURCE_TYPES: ReadonlySet<string> = new Set([
  'decision.created',
  'agent.guardrail.blocked',
  'agent.guardrail.approval_required',
  'batch.completed',
  'batch.failed',
  'video.completed',
  'video.failed',
]);

/** The outcomes of jobs (async batches, videos): each also goes to its job's own webhookUrl. */
export const JOB_OUTCOME_TYPES: ReadonlySet<string> = new Set(['batch.completed', 'batch.failed', 'video.completed', 'video.failed']);

/** The job an outcome event finishes (a batch by its id, a video by its decision's), or null. */
export function jobOf(e: DomainEvent): { kind: 'batch' | 'video'; id: string } | null {
  if (e.type === 'batch.completed' || e.type === 'batch.failed') return { kind: 'batch', id: e.data.batchId };
  if (e.type === 'video.completed' || e.type === 'video.failed') return { kind: 'video', id: e.data.decisionId };
  return null;
}

/** The webhook events a log event gives rise to (none for most). */
export function webhookEventsOf(e: DomainEvent): WebhookPayload[] {
  // A job's outcome is identified by the job, so a second record of it (a job rerun
  // after a crash) is the same webhook event and is not delivered twice.
  const job = jobOf(e);
  const subject = job ? `${job.kind}:${job.id}` : e.id;
  const event = (type: WebhookEventType, data: WebhookPayload['data']): WebhookPayload => ({
    id: stableId('evt', `${subject}:${type}`),
    type,
    createdAt: e.occurredAt,
    data,
  });
  switch (e.type) {
    case 'decision.created': {
      const d = e.data;
      const data = {
        id: d.decisionId,
        decisionId: d.decisionId,
        action: d.action,
        safe: d.safe,
        flagged: d.flagged,
        policyId: d.policyId,
        policyVersion: d.policyVersion,
        categories: d.categories,
        contentType: d.contentType,
        language: d.language,
        requestId: d.requestId,
        metadata: d.metadata,
        provider: d.provider,
        timestamp: e.occurredAt,
      };
      const out = [event('decision.created', data)];
      if (d.action === 'flag') out.push(event('decision.flagged', data));
      if (d.action === 'block') out.push(event('decision.blocked', data));
      return out;
    }
    case 'agent.guardrail.blocked':
    case 'agent.guardrail.approval_required':
      return [event(e.type, { id: e.data.decisionId, ...e.data, timestamp: e.occurredAt })];
    case 'batch.completed': {
      const d = e.data;
      return [
        event('moderation.completed', {
          id: d.batchId,
          batchId: d.batchId,
          status: 'completed',
          policyId: d.policyId,
          totalItems: d.results.length,
          succeeded: d.succeeded,
          failed: d.failed,
          items: d.results,
        }),
      ];
    }
    case 'batch.failed':
      return [event('moderation.failed', { id: e.data.batchId, batchId: e.data.batchId, status: 'failed', policyId: e.data.policyId, error: e.data.error })];
    case 'video.completed': {
      const d = e.data;
      return [
        event('moderation.completed', {
          id: d.decisionId,
          decisionId: d.decisionId,
          contentType: 'video',
          status: 'completed',
          policyId: d.policyId,
          action: d.action,
          safe: d.safe,
          flagged: d.flagged,
          framesProcessed: d.framesProcessed,
          stoppedOnBlock: d.stoppedOnBlock,
        }),
      ];
    }
    case 'video.failed':
      return [
        event('moderation.failed', {
          id: e.data.decisionId,
          decisionId: e.data.decisionId,
          contentType: 'video',
          status: 'failed',
          policyId: e.data.policyId,
          error: e.data.error,
        }),
      ];
    default:
      return [];
  }
}

/** The event `POST /v1/webhooks/{id}/test` sends: marked `test: true`, with a fresh subject id. */
export function testWebhookEvent(type: WebhookEventType, now: Date = new Date()): WebhookPayload {
  return { id: `evt_${randomUUID().replace(/-/g, '')}`, type, createdAt: now.toISOString(), data: { id: `test_${randomUUID()}`, test: true } };
}

/** One delivery per (webhook event, target): the same id however often it is planned. */
export function deliveryIdOf(eventId: string, targetKey: string): string {
  return stableId('dlv', `${eventId}\u0000${targetKey}`);
}

function stableId(prefix: string, input: string): string {
  return `${prefix}_${createHash('sha256').update(input, 'utf8').digest('hex').slice(0, 32)}`;
}
