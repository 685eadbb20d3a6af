import type { DecisionFilter, DecisionList, StoredDecision } from './types/decisions.types';

type ListPage = (filter: DecisionFilter) => Promise<DecisionList>;

/**
 * Every decision matching `filter`, newest first, fetched a page (`limit`, default 100)
 * at a time.
 *
 * The list is ordered by timestamp (then log position), newest first, and grows at its
 * head while we read. Plain growing offsets would make each new decision push one already
 * seen into the next page, and would run past Elasticsearch's 10 000-hit window on a long
 * walk. So after each page the walk moves `to` down to the oldest timestamp seen and
 * offsets only past the decisions already yielded at that very timestamp; the ids seen at
 * it are remembered, so a decision is never yielded twice. Decisions made after the walk
 * began are not included.
 *
 * With a starting `offset`, the decisions skipped are not known, so that walk pages by
 * plain offsets (dropping what the previous page already yielded).
 */
export function iterateDecisionPages(list: ListPage, filter: DecisionFilter = {}): AsyncGenerator<StoredDecision, void, undefined> {
  return filter.offset ? byOffset(list, filter) : byTimestamp(list, filter);
}

async function* byTimestamp(list: ListPage, filter: DecisionFilter): AsyncGenerator<StoredDecision, void, undefined> {
  const limit = filter.limit ?? 100;
  let to = filter.to;
  let offset = 0;
  let seenAtBoundary = new Set<string>();
  for (;;) {
    const { decisions } = await list({ ...filter, limit, offset, to });
    for (const d of decisions) if (!seenAtBoundary.has(d.decisionId)) yield d;
    if (decisions.length < limit) return;
    const oldest = decisions[decisions.length - 1].timestamp;
    const atOldest = decisions.filter((d) => d.timestamp === oldest).map((d) => d.decisionId);
    if (to === oldest) {
      offset += decisions.length;
      for (const id of atOldest) seenAtBoundary.add(id);
    } else {
      to = oldest;
      offset = atOldest.length;
      seenAtBoundary = new Set(atOldest);
    }
  }
}

async function* byOffset(list: ListPage, filter: DecisionFilter): AsyncGenerator<StoredDecision, void, undefined> {
  const limit = filter.limit ?? 100;
  let offset = filter.offset ?? 0;
  let previous = new Set<string>();
  for (;;) {
    const { decisions } = await list({ ...filter, limit, offset });
    for (const d of decisions) if (!previous.has(d.decisionId)) yield d;
    if (decisions.length < limit) return;
    offset += decisions.length;
    previous = new Set(decisions.map((d) => d.decisionId));
  }
}
