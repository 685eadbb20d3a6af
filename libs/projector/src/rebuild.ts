import { Logger } from '@nestjs/common';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfig } from '@cds/config';
import { EventLog } from '@cds/event-log';
import { ElasticsearchReadModels, SqliteReadModels, SqliteRowDecoders } from '@cds/read-models';
import { replayPass } from './replay-pass';
import { replayIntoRows } from './replay-rows';

export interface RebuildResult {
  events: number;
  /** The whole command, promotion included. */
  ms: number;
  /** Creating the new generation and replaying the log into it. */
  replayMs: number;
  /** Of which creating the generation (Elasticsearch: its ten indices): a fixed cost,
   * whatever the log's length. */
  setupMs: number;
  generation: string;
}

/** A catch-up pass that finds fewer new events than this is the last before the swap. */
const CATCH_UP_DONE = 1000;
const MAX_CATCH_UP_PASSES = 10;

/**
 * Rebuild every read model from offset 0 into a fresh generation, then switch to it.
 * The served generation is untouched until the switch.
 */
export async function rebuildSqlite(config: AppConfig, log: EventLog, logger = new Logger('Rebuild')): Promise<RebuildResult> {
  const started = Date.now();
  const fresh = SqliteReadModels.createGeneration(path.join(config.DATA_DIR, 'readmodels'));
  const setupMs = Date.now() - started;
  let decoders: SqliteRowDecoders | null = null;
  try {
    decoders = new SqliteRowDecoders(decoderThreads());
    const events = await replayIntoRows(log, fresh, decoders, logger);
    fresh.finishBulkLoad();
    const replayMs = Date.now() - started;
    fresh.promote();
    logger.log(`rebuilt generation ${fresh.generation()} from ${events} events in ${Date.now() - started} ms`);
    return { events, ms: Date.now() - started, replayMs, setupMs, generation: fresh.generation() };
  } finally {
    await decoders?.close();
    await fresh.close();
  }
}

/** Threads that decode beside the writer: two on two cores measured faster than one or
 * three (BENCHMARKS.md); past four, the single writer is the limit. */
function decoderThreads(): number {
  return Math.min(4, Math.max(2, os.availableParallelism()));
}

/** How long a rebuild waits for the live projector to take its promotion request. */
const TAKEOVER_WAIT_MS = 5_000;
/** How long it then waits for that projector to finish the promotion. */
const PROMOTION_WAIT_MS = 120_000;

/**
 * The same on Elasticsearch, beside the live services: replay up to the end offsets seen
 * at the start, catch up with what was appended meanwhile, then ask the live projector to
 * promote the generation. The projector stops writing the served generation, brings the
 * new one to the log's end and swaps the aliases (ProjectorService.takeOverPromotion), so
 * readers see the old generation until the swap and never a write missing after it.
 * With no projector taking the request (none running), the rebuild swaps itself: nobody
 * writes the served generation then. A failed rebuild deletes its unserved generation.
 */
export async function rebuildElasticsearch(
  config: AppConfig,
  log: EventLog,
  logger = new Logger('Rebuild'),
  waits = { takeoverMs: TAKEOVER_WAIT_MS, promotionMs: PROMOTION_WAIT_MS },
): Promise<RebuildResult> {
  const started = Date.now();
  const since = () => `${Date.now() - started} ms`;
  const fresh = await ElasticsearchReadModels.createGeneration({ node: config.ELASTICSEARCH_URL, indexPrefix: config.TOPIC_PREFIX, logger });
  const setupMs = Date.now() - started;
  logger.log(`created the indices of generation ${fresh.generation()} (${since()})`);
  let handedOver = false;
  try {
    const next = new Map<string, number>();
    let events = await replayPass(log, fresh, next, logger);
    logger.log(`replayed ${events} events (${since()})`);
    for (let pass = 1; pass <= MAX_CATCH_UP_PASSES; pass++) {
      const caughtUp = await replayPass(log, fresh, next, logger);
      events += caughtUp;
      logger.log(`catch-up pass ${pass}: ${caughtUp} events (${since()})`);
      if (caughtUp < CATCH_UP_DONE) break;
    }
    const replayMs = Date.now() - started;
    await fresh.requestPromotion();
    logger.log(`asked the live projector to promote ${fresh.generation()} (${since()})`);
    handedOver = await waitFor(waits.takeoverMs, async () => {
      const pending = await fresh.pendingPromotion();
      return pending?.generation !== fresh.generation();
    });
    if (handedOver) {
      logger.log(`the live projector took the promotion (${since()})`);
      if (!(await waitFor(waits.promotionMs, async () => (await fresh.servedGeneration()) === fresh.generation()))) {
        throw new Error(`the projector took the promotion of ${fresh.generation()} but has not finished it after ${waits.promotionMs} ms; see its log`);
      }
      logger.log(`the live projector promoted generation ${fresh.generation()}`);
    } else {
      const pending = await fresh.pendingPromotion();
      const withdrawn = pending?.generation === fresh.generation() && (await pending.claim());
      if (!withdrawn) {
        handedOver = true; // taken at the last moment: the projector completes it
        if (!(await waitFor(waits.promotionMs, async () => (await fresh.servedGeneration()) === fresh.generation()))) {
          throw new Error(`the promotion of ${fresh.generation()} was taken but not finished after ${waits.promotionMs} ms; see the projector's log`);
        }
      } else {
        logger.warn(`no live projector took the promotion within ${waits.takeoverMs} ms: promoting generation ${fresh.generation()} directly`);
        await replayPass(log, fresh, next, logger);
        await fresh.promote();
      }
    }
    logger.log(`rebuilt generation ${fresh.generation()} from ${events} events in ${Date.now() - started} ms`);
    return { events, ms: Date.now() - started, replayMs, setupMs, generation: fresh.generation() };
  } catch (err) {
    if (!handedOver) {
      await fresh.discard().catch((e: Error) => logger.error(`could not delete the unfinished generation ${fresh.generation()}: ${e.message}`));
    }
    throw err;
  } finally {
    await fresh.close();
  }
}

async function waitFor(timeoutMs: number, condition: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
}
