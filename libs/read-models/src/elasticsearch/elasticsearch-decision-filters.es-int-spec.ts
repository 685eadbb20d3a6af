import { FILTER_BATCH, FILTER_CASES } from '../decision-filter.fixtures';
import { ElasticsearchReadModels } from './elasticsearch-read-models.adapter';
import { deletePrefix, openRm, uniquePrefix } from './es-test-kit';

describe('ElasticsearchReadModels: decision audit filters (real node)', () => {
  const prefix = uniquePrefix();
  let rm: ElasticsearchReadModels;
  beforeAll(async () => {
    rm = await openRm(prefix);
    await rm.applyBatch(FILTER_BATCH);
  });
  afterAll(async () => {
    await rm?.close();
    await deletePrefix(prefix);
  });

  it.each(FILTER_CASES)('%s', async (_what, tenantId, filter, expected) => {
    expect((await rm.listDecisions(tenantId, filter)).map((d) => d.decisionId)).toEqual(expected);
  });

  it('returns each decision whole, as applied (derived search fields stay internal)', async () => {
    const [c] = await rm.listDecisions('t1', { limit: 1, offset: 0, q: 'question' });
    const e = FILTER_BATCH[2].event;
    expect(c).toEqual({ ...(e.data as object), tenantId: 't1', timestamp: e.occurredAt });
  });
});
