import type { estypes } from '@elastic/elasticsearch';
import { DeliveryAttemptStatus } from '@cds/events';
import { PendingCursor } from '../webhook-read-models.port';
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

/** Pending deliveries of every tenant in (nextAttemptAt, deliveryId) order, those after
 * `after` (keyset paging: the cursor is a range filter, so a walk through any number of
 * pending deliveries never goes deeper than MAX_RESULT_WINDOW into one search). The
 * keyword order of the node (UTF-8 bytes) is SQLite's BINARY order: both adapters page alike. */
export function pendingDeliveriesSearch(limit: number, after: PendingCursor | null = null): Search {
  const filter: estypes.QueryDslQueryContainer[] = [{ term: { state: 'pending' } }];
  if (after) {
    const due = after.nextAttemptAt;
    filter.push(
      due === null
        ? { bool: { should: [{ exists: { field: 'nextAttemptAt' } }, { range: { deliveryId: { gt: after.deliveryId } } }], minimum_should_match: 1 } }
        : {
            bool: {
              should: [
                { range: { nextAttemptAt: { gt: due } } },
                { bool: { filter: [{ term: { nextAttemptAt: due } }, { range: { deliveryId: { gt: after.deliveryId } } }] } },
              ],
              minimum_should_match: 1,
            },
          },
    );
  }
  return {
    query: { bool: { filter } },
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
 * both `after` and `notBefore` (`order: 'asc'`): the two steps of `webhookFailingSince`. */
export function attemptWithStatusSearch(
  tenantId: string,
  webhookId: string,
  status: DeliveryAttemptStatus,
  order: 'asc' | 'desc',
  after: string | null = null,
  notBefore: string | null = null,
): Search {
  const filter: estypes.QueryDslQueryContainer[] = [{ term: { tenantId } }, { term: { webhookId } }, { term: { status } }];
  for (const bound of [after, notBefore]) if (bound) filter.push({ range: { timestamp: { gt: bound } } });
  return { query: { bool: { filter } }, sort: [{ timestamp: order }], size: 1 };
}
