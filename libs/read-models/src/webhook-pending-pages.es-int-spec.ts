import { ElasticsearchReadModels } from './elasticsearch/elasticsearch-read-models.adapter';
import { MAX_RESULT_WINDOW } from './elasticsearch/es-queries';
import { deletePrefix, openRm, uniquePrefix } from './elasticsearch/es-test-kit';
import { FAILING_SINCE_CASES, failingSinceBatch, pendingPagesBatch, positions, scheduled, t, walkPending } from './webhook-pending.fixtures';

// Real node: bootstraps and bulk loads take seconds.
jest.setTimeout(120_000);

/** Elasticsearch's side of webhook-pending.fixtures (the SQLite spec runs the same cases). */
describe('ElasticsearchReadModels: pending deliveries page by page, failing since (real node)', () => {
  const prefixes: string[] = [];
  const opened: ElasticsearchReadModels[] = [];
  const open = async () => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const rm = await openRm(prefix);
    opened.push(rm);
    return rm;
  };
  afterAll(async () => {
    for (const rm of opened) await rm.close();
    for (const p of prefixes) await deletePrefix(p);
  });

  it('walks every pending delivery once, in due order, at any page size', async () => {
    const rm = await open();
    const { batch, expected } = pendingPagesBatch();
    await rm.applyBatch(batch);
    for (const pageSize of [1, 2, 4, 9, 100]) expect({ pageSize, ids: await walkPending(rm, pageSize) }).toEqual({ pageSize, ids: expected });
  });

  it(`pages past the node's ${MAX_RESULT_WINDOW}-hit search window`, async () => {
    const rm = await open();
    const at = positions();
    const ids = Array.from({ length: MAX_RESULT_WINDOW + 345 }, (_, i) => `d-${String(i).padStart(6, '0')}`);
    const events = ids.map((id, i) => at('deliveries', scheduled('t1', id, t(i % 10).toISOString())));
    for (let i = 0; i < events.length; i += 2500) await rm.applyBatch(events.slice(i, i + 2500));
    const walked = await walkPending(rm, 4000);
    expect(walked).toHaveLength(ids.length);
    expect(new Set(walked).size).toBe(ids.length);
    expect(walked.slice(0, 3)).toEqual(['d-000000', 'd-000010', 'd-000020']);
  });

  it.each(FAILING_SINCE_CASES)('failing since: %s', async (_what, notBefore, expected) => {
    const rm = await open();
    await rm.applyBatch(failingSinceBatch());
    expect(await rm.webhookFailingSince('t1', 'w1', notBefore)).toBe(expected);
  });
});
