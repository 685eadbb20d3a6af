import type { EventLog } from '@cds/event-log';
import type { GenerationLoad } from '@cds/read-models';
import { replayPass } from './replay-pass';

export interface RebuildLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

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

/** How long a rebuild waits for the live projector to take its promotion request. */
const TAKEOVER_WAIT_MS = 5_000;
/** How long it then waits for that projector to finish the promotion. */
const PROMOTION_WAIT_MS = 120_000;

/**
 * Rebuild every read model from offset 0 into a fresh generation (the generations port:
 * SQLite or Elasticsearch), then switch to it; the served generation is untouched until
 * the switch. Replay up to the end offsets seen at the start, catch up with what was
 * appended meanwhile (nothing, when the service is stopped), finish the load, then:
 * - where a live projector may be writing the served generation (Elasticsearch), ask it
 *   to promote the new one: it stops writing the served generation, brings the new one
 *   to the log's end and swaps (ProjectorService.takeOverPromotion), so readers see the
 *   old generation until the swap and never a write missing after it;
 * - with nobody to ask (SQLite), or nobody taking the request in time (no projector
 *   running), catch up once more and swap here: nobody writes the served generation then.
 * A failed rebuild deletes its unserved generation.
 */
export async function rebuild(
  create: () => Promise<GenerationLoad>,
  log: EventLog,
  logger: RebuildLogger,
  waits = { takeoverMs: TAKEOVER_WAIT_MS, promotionMs: PROMOTION_WAIT_MS },
): Promise<RebuildResult> {
  const started = Date.now();
  const since = () => `${Date.now() - started} ms`;
  const fresh = await create();
  const setupMs = Date.now() - started;
  logger.log(`created read-model generation ${fresh.generation} (${since()})`);
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
    await fresh.finishLoad();
    const replayMs = Date.now() - started;
    if (await fresh.requestPromotion()) {
      logger.log(`asked the live projector to promote ${fresh.generation} (${since()})`);
      handedOver = await waitFor(waits.takeoverMs, async () => !(await fresh.promotionPending()));
      if (!handedOver && !(await fresh.withdrawPromotion())) handedOver = true; // taken at the last moment: the projector completes it
      if (handedOver) {
        logger.log(`the live projector took the promotion (${since()})`);
        if (!(await waitFor(waits.promotionMs, () => fresh.isServed()))) {
          throw new Error(`the projector took the promotion of ${fresh.generation} but has not finished it after ${waits.promotionMs} ms; see its log`);
        }
        logger.log(`the live projector promoted generation ${fresh.generation}`);
      } else {
        logger.warn(`no live projector took the promotion within ${waits.takeoverMs} ms: promoting generation ${fresh.generation} directly`);
      }
    }
    if (!handedOver) {
      await replayPass(log, fresh, next, logger);
      await fresh.promote();
    }
    logger.log(`rebuilt generation ${fresh.generation} from ${events} events in ${Date.now() - started} ms`);
    return { events, ms: Date.now() - started, replayMs, setupMs, generation: fresh.generation };
  } catch (err) {
    if (!handedOver) {
      await fresh.discard().catch((e: Error) => logger.error(`could not delete the unfinished generation ${fresh.generation}: ${e.message}`));
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
