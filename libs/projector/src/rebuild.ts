import { Logger } from '@nestjs/common';
import * as path from 'node:path';
import { AppConfig } from '@cds/config';
import { TOPICS } from '@cds/events';
import { EventLog } from '@cds/event-log';
import { ElasticsearchReadModels, ReadModels, SqliteReadModels } from '@cds/read-models';
import { liftBatch } from './projector.service';

export interface RebuildResult {
  events: number;
  ms: number;
  generation: string;
}

const READ_BATCH = 5000;
/** A catch-up pass that finds fewer new events than this is the last before the swap. */
const CATCH_UP_DONE = 1000;
const MAX_CATCH_UP_PASSES = 10;

/**
 * One pass over every partition of every topic: apply from `next` (the next offset per
 * `topic:partition`, updated in place) up to the end offsets read at the start of the
 * pass. Returns how many events it read.
 */
export async function replayPass(log: EventLog, into: Pick<ReadModels, 'applyBatch'>, next: Map<string, number>, logger: Pick<Logger, 'error'>): Promise<number> {
  let events = 0;
  for (const topic of TOPICS) {
    for (const [partition, end] of await log.endOffsets(topic)) {
      const k = `${topic}:${partition}`;
      let offset = next.get(k) ?? 0;
      while (offset < end) {
        const batch = await log.read(topic, partition, offset, Math.min(READ_BATCH, end - offset));
        if (batch.length === 0) break;
        await into.applyBatch(liftBatch(batch, logger));
        offset = batch[batch.length - 1].offset + 1;
        events += batch.length;
      }
      next.set(k, offset);
    }
  }
  return events;
}

/**
 * Rebuild every read model from offset 0 into a fresh generation, then switch to it.
 * The served generation is untouched until the switch.
 */
export async function rebuildSqlite(config: AppConfig, log: EventLog, logger = new Logger('Rebuild')): Promise<RebuildResult> {
  const started = Date.now();
  const fresh = SqliteReadModels.createGeneration(path.join(config.DATA_DIR, 'readmodels'));
  try {
    const events = await replayPass(log, fresh, new Map(), logger);
    fresh.promote();
    logger.log(`rebuilt generation ${fresh.generation()} from ${events} events in ${Date.now() - started} ms`);
    return { events, ms: Date.now() - started, generation: fresh.generation() };
  } finally {
    await fresh.close();
  }
}

/**
 * The same on Elasticsearch, beside the live services: replay up to the end offsets seen
 * at the start, catch up with what was appended meanwhile, then swap the aliases. Readers
 * see the old generation until the swap; the live projector then moves to the new one
 * from its stored positions (ProjectorService), so what arrives after the last pass is
 * applied by it. A failed rebuild deletes its unserved generation.
 */
export async function rebuildElasticsearch(config: AppConfig, log: EventLog, logger = new Logger('Rebuild')): Promise<RebuildResult> {
  const started = Date.now();
  const fresh = await ElasticsearchReadModels.createGeneration({ node: config.ELASTICSEARCH_URL, indexPrefix: config.TOPIC_PREFIX, logger });
  try {
    const next = new Map<string, number>();
    let events = await replayPass(log, fresh, next, logger);
    for (let pass = 1; pass <= MAX_CATCH_UP_PASSES; pass++) {
      const caughtUp = await replayPass(log, fresh, next, logger);
      events += caughtUp;
      if (caughtUp < CATCH_UP_DONE) break;
    }
    await fresh.promote();
    logger.log(`rebuilt generation ${fresh.generation()} from ${events} events in ${Date.now() - started} ms`);
    return { events, ms: Date.now() - started, generation: fresh.generation() };
  } catch (err) {
    await fresh.discard().catch((e: Error) => logger.error(`could not delete the unfinished generation ${fresh.generation()}: ${e.message}`));
    throw err;
  } finally {
    await fresh.close();
  }
}
