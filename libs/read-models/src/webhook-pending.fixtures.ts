import { DeliveryAttemptedV1, DomainEvent, envelope, Topic } from '@cds/events';
import { ProjectedEvent } from './read-models.port';
import { WebhookReadModels } from './webhook-read-models.port';

/**
 * The paging of `listPendingDeliveries` and the `notBefore` of `webhookFailingSince`, as
 * fixtures and expected answers, so the SQLite and Elasticsearch specs hold both adapters
 * to the same results.
 */
export const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

/** Successive offsets per topic (partition 0), as a log would give them. */
export function positions(): (topic: Topic, event: DomainEvent) => ProjectedEvent {
  const offsets = new Map<string, number>();
  return (topic, event) => {
    const offset = offsets.get(topic) ?? 0;
    offsets.set(topic, offset + 1);
    return { topic, partition: 0, offset, event };
  };
}

export const scheduled = (tenantId: string, deliveryId: string, dueAt: string, webhookId = 'w1') =>
  envelope('webhook.delivery.scheduled', 1, tenantId, deliveryId, {
    deliveryId,
    webhookId,
    target: { kind: 'webhook' as const, webhookId },
    eventId: `evt-${deliveryId}`,
    eventType: 'decision.created',
    payload: { id: `evt-${deliveryId}` },
    dueAt,
  });

export const attempted = (
  tenantId: string,
  deliveryId: string,
  attempt: number,
  ok: boolean,
  when: Date,
  next: string | null = null,
  test = false,
  webhookId = 'w1',
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

/**
 * Pending deliveries with ties on the due time (the id orders them), in two tenants,
 * beside deliveries that are not pending any more; one was retried to a later due time.
 */
export function pendingPagesBatch(): { batch: ProjectedEvent[]; expected: string[] } {
  const at = positions();
  const due = (s: number) => t(s).toISOString();
  const batch = [
    at('deliveries', scheduled('t1', 'd-07', due(30))),
    at('deliveries', scheduled('t1', 'd-03', due(10))),
    at('deliveries', scheduled('t2', 'd-01', due(10))),
    at('deliveries', scheduled('t1', 'd-05', due(10))),
    at('deliveries', scheduled('t2', 'd-02', due(20))),
    at('deliveries', scheduled('t1', 'd-09', due(5))),
    at('deliveries', scheduled('t1', 'd-04', due(20))),
    at('deliveries', scheduled('t1', 'd-08', due(40))),
    at('deliveries', scheduled('t1', 'd-06', due(10))),
    at('deliveries', scheduled('t1', 'gone-ok', due(10))),
    at('deliveries', scheduled('t1', 'gone-cancelled', due(10))),
    at('deliveries', attempted('t1', 'gone-ok', 1, true, t(11))),
    at(
      'deliveries',
      envelope('webhook.delivery.cancelled', 1, 't1', 'gone-cancelled', {
        deliveryId: 'gone-cancelled',
        webhookId: 'w1',
        eventId: 'evt-gone-cancelled',
        eventType: 'decision.created',
        reason: 'webhook_disabled' as const,
      }),
    ),
    // d-09 failed once: due again at 35 s.
    at('deliveries', attempted('t1', 'd-09', 1, false, t(6), due(35))),
  ];
  return { batch, expected: ['d-01', 'd-03', 'd-05', 'd-06', 'd-02', 'd-04', 'd-07', 'd-09', 'd-08'] };
}

/** Every pending delivery, page after page of `pageSize`, as the dispatcher walks them. */
export async function walkPending(rm: WebhookReadModels, pageSize: number): Promise<string[]> {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (let page = await rm.listPendingDeliveries(pageSize); page.length > 0; page = await rm.listPendingDeliveries(pageSize, page.at(-1))) {
    ids.push(...page.map((d) => d.deliveryId));
    // A page that repeats what came before would never end the walk: stop, the caller sees it.
    if (page.some((d) => seen.has(d.deliveryId)) || page.length < pageSize) break;
    for (const d of page) seen.add(d.deliveryId);
  }
  return ids;
}

/**
 * Attempts of w1 (t1): failed at 1 and 2 s, a successful test delivery at 3 s, failed at
 * 4 and 6 s. `notBefore` (e.g. the webhook turned back on at 5 s) restarts the count.
 */
export function failingSinceBatch(): ProjectedEvent[] {
  const at = positions();
  return [
    at('deliveries', attempted('t1', 'f-1', 1, false, t(1), t(2).toISOString())),
    at('deliveries', attempted('t1', 'f-1', 2, false, t(2), t(9).toISOString())),
    at('deliveries', attempted('t1', 'test-1', 1, true, t(3), null, true)),
    at('deliveries', attempted('t1', 'f-2', 1, false, t(4), t(5).toISOString())),
    at('deliveries', attempted('t1', 'f-2', 2, false, t(6), t(9).toISOString())),
  ];
}

/** [what, notBefore, expected failing-since]. */
export const FAILING_SINCE_CASES: [string, string | null, string | null][] = [
  ['since the last success when nothing else restarts the count', null, t(4).toISOString()],
  ['a notBefore before the last success changes nothing', t(2).toISOString(), t(4).toISOString()],
  ['from the first failure after notBefore (turned back on at 5 s)', t(5).toISOString(), t(6).toISOString()],
  ['none when no failure came after notBefore', t(7).toISOString(), null],
];
