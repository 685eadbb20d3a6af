import { Logger } from '@nestjs/common';
import * as path from 'node:path';
import { AppConfig } from '@cds/config';
import { TOPICS } from '@cds/events';
import { EventLog } from '@cds/event-log';
import { SqliteReadModels } from '@cds/read-models';
import { liftBatch } from './projector.service';

/**
 * Rebuild every read model from offset 0 into a fresh generation, then switch to it.
 * The served generation is untouched until the switch.
 */
export async function rebuildSqlite(config: AppConfig, log: EventLog, logger = new Logger('Rebuild')): Promise<{ events: number; ms: number; generation: string }> {
  const started = Date.now();
  const fresh = SqliteReadModels.createGeneration(path.join(config.DATA_DIR, 'readmodels'));
  let events = 0;
  try {
    for (const topic of TOPICS) {
      const end = (await log.endOffsets(topic)).get(0) ?? 0;
      let next = 0;
      while (next < end) {
        const batch = await log.read(topic, 0, next, 5000);
        if (batch.length === 0) break;
        await fresh.applyBatch(liftBatch(batch, logger));
        next = batch[batch.length - 1].offset + 1;
        events += batch.length;
      }
    }
    fresh.promote();
    logger.log(`rebuilt generation ${fresh.generation()} from ${events} events in ${Date.now() - started} ms`);
    return { events, ms: Date.now() - started, generation: fresh.generation() };
  } finally {
    await fresh.close();
  }
}
