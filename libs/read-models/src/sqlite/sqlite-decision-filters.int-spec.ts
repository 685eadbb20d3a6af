import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { encodeEvent } from '@cds/events';
import { FILTER_BATCH, FILTER_CASES } from '../decision-filter.fixtures';
import { SqliteReadModels } from './sqlite-read-models.adapter';

describe.each([
  ['documents made from the events (applyBatch)', (rm: SqliteReadModels) => rm.applyBatch(FILTER_BATCH)],
  [
    'documents cut out of the events as the log holds them (applyEncoded, the live projector)',
    async (rm: SqliteReadModels) => {
      const encoded = FILTER_BATCH.map((e, offset) => ({ topic: e.topic, partition: 0, offset, json: encodeEvent(e.event) }));
      expect(await rm.applyEncoded(encoded)).toEqual([]);
    },
  ],
])('SqliteReadModels: decision audit filters, %s', (_how, apply) => {
  const rm = SqliteReadModels.open(fs.mkdtempSync(path.join(os.tmpdir(), 'cds-rm-f-')));
  beforeAll(() => apply(rm));
  afterAll(() => rm.close());

  it.each(FILTER_CASES)('%s', async (_what, tenantId, filter, expected) => {
    expect((await rm.listDecisions(tenantId, filter)).map((d) => d.decisionId)).toEqual(expected);
  });
});
