import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FILTER_BATCH, FILTER_CASES } from '../decision-filter.fixtures';
import { SqliteReadModels } from './sqlite-read-models.adapter';

describe('SqliteReadModels: decision audit filters', () => {
  const rm = SqliteReadModels.open(fs.mkdtempSync(path.join(os.tmpdir(), 'cds-rm-f-')));
  beforeAll(() => rm.applyBatch(FILTER_BATCH));
  afterAll(() => rm.close());

  it.each(FILTER_CASES)('%s', async (_what, tenantId, filter, expected) => {
    expect((await rm.listDecisions(tenantId, filter)).map((d) => d.decisionId)).toEqual(expected);
  });
});
