import type { estypes } from '@elastic/elasticsearch';
import { DeliveryAttemptStatus } from '@cds/events';
import { MAX_RESULT_WINDOW } from './es-queries';

type Search = Pick<estypes.SearchRequest, 'query' | 'sort' | 'size'>;

/** A caller's limit as a search size the node accepts. */
const sizeOf = (limit: number) => Math.max(0, Math.min(limit, MAX_RESULT_WINDOW));

/** The tenant's live webhooks, oldest first (a deleted one keeps its document, with `deletedAt`). */
export function liveWebhooksSearch(tenantId: string): Search {
  return {
    query: { bool: { filter: [{ term: { tenantId } }], must_not: [{ exists: { field: 'deletedAt' } }] } },
    sort: [{ createdAt: 'asc' }, { webhookId: 'asc' }],
    size: MAX_RESULT_WINDOW,
  };
}

/** Pending deliveries of every tenant, soonest due first. */
export function pendingDeliveriesSearch(limit: number): Search {
  return {
    query: { term: { state: 'pending' } },
    sort: [{ nextAttemptAt: { order: 'asc', missing: '_first' } }, { deliveryId: 'asc' }],
    size: sizeOf(limit),
  };
}

/** Attempts of a webhook's deliveries, newest first (log position breaks ties). */
export function deliveryAttemptsSearch(tenantId: string, webhookId: string, limit: number): Search {
  return {
    query: { bool: { filter: [{ term: { tenantId } }, { term: { webhookId } }] } },
    sort: [{ timestamp: 'desc' }, { pos: 'desc' }, { partition: 'desc' }],
    size: sizeOf(limit),
  };
}

/** The webhook's latest attempt with `status` (`order: 'desc'`), or its first one after
 * `after` (`order: 'asc'`): the two steps of `webhookFailingSince`. */
export function attemptWithStatusSearch(
  tenantId: string, webhookId: string, status: DeliveryAttemptStatus, order: 'asc' | 'desc', after: string | null = null,
): Search {
  const filter: estypes.QueryDslQueryContainer[] = [{ term: { tenantId } }, { term: { webhookId } }, { term: { status } }];
  if (after) filter.push({ range: { timestamp: { gt: after } } });
  return { query: { bool: { filter } }, sort: [{ timestamp: order }], size: 1 };
}
