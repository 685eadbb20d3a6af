import type { estypes } from '@elastic/elasticsearch';
import { invalid } from '@cds/errors';
import { DecisionFilter, GuardrailCounts } from '../documents';

/** Elasticsearch's default index.max_result_window: deeper pages are refused by the node. */
export const MAX_RESULT_WINDOW = 10_000;

/** The search of `listDecisions`: tenant first, newest first (log position breaks ties). */
export function decisionSearch(tenantId: string, f: DecisionFilter): Pick<estypes.SearchRequest, 'query' | 'sort' | 'from' | 'size'> {
  if (f.offset + f.limit > MAX_RESULT_WINDOW) {
    throw invalid('VALIDATION_ERROR', 'Invalid request parameters', `offset + limit must not exceed ${MAX_RESULT_WINDOW}; narrow the window with from/to`);
  }
  const filter: estypes.QueryDslQueryContainer[] = [{ term: { tenantId } }];
  if (f.action) filter.push({ term: { action: f.action } });
  if (f.policyId) filter.push({ term: { policyId: f.policyId } });
  if (f.userId !== undefined) filter.push({ term: { userId: f.userId } });
  if (f.category !== undefined) filter.push({ term: { triggeredCategories: f.category } });
  if (f.from || f.to) filter.push({ range: { timestamp: { ...(f.from && { gte: f.from }), ...(f.to && { lte: f.to }) } } });
  const must: estypes.QueryDslQueryContainer[] = f.q ? [{ match: { content: { query: f.q, operator: 'and' } } }] : [];
  return {
    query: { bool: { filter, must } },
    sort: [{ timestamp: 'desc' }, { pos: 'desc' }, { partition: 'desc' }],
    from: f.offset,
    size: f.limit,
  };
}

export function guardrailCountsSearch(tenantId: string, projectId: string, from: string, to: string): estypes.SearchRequest {
  return {
    size: 0,
    query: { bool: { filter: [{ term: { tenantId } }, { term: { projectId } }, { range: { timestamp: { gte: from, lt: to } } }] } },
    aggs: {
      days: {
        date_histogram: { field: 'timestamp', calendar_interval: 'day', time_zone: 'UTC', min_doc_count: 1, format: 'yyyy-MM-dd' },
        aggs: {
          blocked: { filter: { term: { action: 'block' } } },
          approvalRequired: { filter: { term: { requiresApproval: true } } },
          skillVetting: { filter: { term: { kind: 'skill_vetting' } } },
        },
      },
    },
  };
}

interface DayBucket {
  key_as_string: string;
  doc_count: number;
  blocked: { doc_count: number };
  approvalRequired: { doc_count: number };
  skillVetting: { doc_count: number };
}

export function guardrailCountsOf(aggregations: Record<string, unknown> | undefined): GuardrailCounts {
  const buckets = (aggregations?.days as { buckets?: DayBucket[] })?.buckets ?? [];
  const counts: GuardrailCounts = { total: 0, blocked: 0, approvalRequired: 0, skillVetting: 0, runtimeAuthorization: 0, daily: [] };
  for (const b of buckets) {
    counts.total += b.doc_count;
    counts.blocked += b.blocked.doc_count;
    counts.approvalRequired += b.approvalRequired.doc_count;
    counts.skillVetting += b.skillVetting.doc_count;
    counts.daily.push({ date: b.key_as_string, total: b.doc_count, blocked: b.blocked.doc_count, approvalRequired: b.approvalRequired.doc_count });
  }
  counts.runtimeAuthorization = counts.total - counts.skillVetting;
  return counts;
}
