import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteReadModels } from './sqlite/sqlite-read-models.adapter';
import { FAILING_SINCE_CASES, failingSinceBatch, pendingPagesBatch, positions, scheduled, t, walkPending } from './webhook-pending.fixtures';

/** SQLite's side of webhook-pending.fixtures (the Elasticsearch spec runs the same cases). */
describe('SqliteReadModels: pending deliveries page by page, failing since', () => {
  const open = () => SqliteReadModels.open(fs.mkdtempSync(path.join(os.tmpdir(), 'cds-rm-p-')));

  it.each([1, 2, 4, 9, 100])('walks every pending delivery once, in due order, %i at a time', async (pageSize) => {
    const rm = open();
    const { batch, expected } = pendingPagesBatch();
    await rm.applyBatch(batch);
    expect(await walkPending(rm, pageSize)).toEqual(expected);
    await rm.close();
  });

  it('pages past any number of pending deliveries (no window caps the walk)', async () => {
    const rm = open();
    const at = positions();
    const ids = Array.from({ length: 12_345 }, (_, i) => `d-${String(i).padStart(6, '0')}`);
    // Ten distinct due times: long runs of ties, ordered by id.
    await rm.applyBatch(ids.map((id, i) => at('deliveries', scheduled('t1', id, t(i % 10).toISOString()))));
    const walked = await walkPending(rm, 1000);
    expect(walked).toHaveLength(ids.length);
    expect(new Set(walked).size).toBe(ids.length);
    expect(walked.slice(0, 3)).toEqual(['d-000000', 'd-000010', 'd-000020']);
    await rm.close();
  });

  it.each(FAILING_SINCE_CASES)('failing since: %s', async (_what, notBefore, expected) => {
    const rm = open();
    await rm.applyBatch(failingSinceBatch());
    expect(await rm.webhookFailingSince('t1', 'w1', notBefore)).toBe(expected);
    await rm.close();
  });
});
