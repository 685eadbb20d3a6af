import { CategoryResult, DecisionCreatedV1 } from '@cds/events';
import { decisionCreated } from './decision-event.fixtures';
import { DecisionFilter } from './documents';
import { ProjectedEvent } from './read-models.port';

/**
 * The audit filters of `listDecisions`, as one fixture and its expected answers, so the
 * SQLite and Elasticsearch specs hold both adapters to the same results. The words
 * searched with `q` are whole words: a substring (SQLite) and an analyzed match
 * (Elasticsearch) agree on them.
 */
const cat = (category: string, triggered: boolean): CategoryResult => ({ category, score: triggered ? 0.9 : 0.1, threshold: 0.7, triggered });

function checked(tenantId: string, id: string, day: string, over: Partial<DecisionCreatedV1>): ProjectedEvent {
  const event = decisionCreated(tenantId, id, { content: '', policyVersion: 1, signals: {}, categories: [], ...over }, `2026-01-0${day}T10:00:00.000Z`);
  return { topic: 'decisions', partition: 0, offset: Number(day) - 1, event };
}

export const FILTER_BATCH: ProjectedEvent[] = [
  checked('t1', 'a', '1', { content: 'The quick brown fox', metadata: { userId: 'u1' }, categories: [cat('hate', false)] }),
  checked('t1', 'b', '2', {
    content: 'Buy CHEAP pills now',
    metadata: { userId: 42 },
    action: 'block',
    policyId: 'strict',
    categories: [cat('spam', true), cat('hate', false)],
  }),
  checked('t1', 'c', '3', {
    content: 'quick question about pills',
    metadata: { userId: 'u1', plan: 'pro' },
    action: 'flag',
    policyId: 'strict',
    categories: [cat('hate', true), cat('spam', true)],
  }),
  // A userId that is an object never matches a userId filter (and must not break indexing).
  checked('t1', 'd', '4', { content: 'nothing here', metadata: { userId: { nested: 'u1' } } }),
  checked('t2', 'e', '5', { content: 'quick pills', metadata: { userId: 'u1' }, action: 'block', categories: [cat('spam', true)] }),
];

const page = { limit: 50, offset: 0 };

/** [what is asked, tenant, filter, decision ids expected, newest first]. */
export const FILTER_CASES: [string, string, DecisionFilter, string[]][] = [
  ['no filter', 't1', page, ['d', 'c', 'b', 'a']],
  ['metadata.userId', 't1', { ...page, userId: 'u1' }, ['c', 'a']],
  ['a numeric metadata.userId, as text', 't1', { ...page, userId: '42' }, ['b']],
  ['an unknown userId', 't1', { ...page, userId: 'u9' }, []],
  ['a triggered category', 't1', { ...page, category: 'spam' }, ['c', 'b']],
  ['a category present but not triggered is no match', 't1', { ...page, category: 'hate' }, ['c']],
  ['full text, one word', 't1', { ...page, q: 'quick' }, ['c', 'a']],
  ['full text, case-insensitive', 't1', { ...page, q: 'QUICK' }, ['c', 'a']],
  ['full text, two words', 't1', { ...page, q: 'cheap pills' }, ['b']],
  ['policyId', 't1', { ...page, policyId: 'strict' }, ['c', 'b']],
  ['action', 't1', { ...page, action: 'block' }, ['b']],
  ['from/to, both inclusive', 't1', { ...page, from: '2026-01-02T10:00:00.000Z', to: '2026-01-03T10:00:00.000Z' }, ['c', 'b']],
  ['from only', 't1', { ...page, from: '2026-01-03T10:00:00.001Z' }, ['d']],
  ['filters combined', 't1', { ...page, userId: 'u1', category: 'spam', q: 'pills' }, ['c']],
  ['limit and offset', 't1', { limit: 2, offset: 1 }, ['c', 'b']],
  ['another tenant', 't2', { ...page, userId: 'u1', q: 'quick' }, ['e']],
  ['no tenant leak', 't3', page, []],
];
