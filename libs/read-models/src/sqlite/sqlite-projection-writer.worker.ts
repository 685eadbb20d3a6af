import { workerData } from 'node:worker_threads';
import { decodeRows } from './decode-rows';
import { SqliteReadModels } from './sqlite-read-models.adapter';
import type { AppliedBatch, WriterJob, WriterTarget } from './sqlite-projection-writer';
import { answerJobs } from './sqlite-thread';

/** The projection writer thread (see SqliteProjectionWriter). */
const { dir, gen } = workerData as WriterTarget;
const models = SqliteReadModels.openGeneration(dir, gen);

answerJobs(async (job: WriterJob): Promise<AppliedBatch | null> => {
  if ('close' in job) {
    await models.close();
    return null;
  }
  const { rows, parked } = decodeRows(job.apply);
  return { ...models.applyRows(rows), parked };
});
