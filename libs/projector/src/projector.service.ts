import { Inject, Injectable, Optional, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { TOPICS } from '@cds/events';
import { EVENT_LOG, EventLog, liftBatch, LogFollower, LogHandler } from '@cds/event-log';
import { GenerationLoad, LiveGenerations, READ_MODELS, ReadModels } from '@cds/read-models';
import { Metrics } from '@cds/metrics';
import { replayPass } from './replay-pass';

/**
 * Fills the read models from the log. Its consumer group is named after the read-model
 * generation, so a fresh generation is filled from offset 0. The log checkpoints a batch
 * only after `applyBatch` resolved and applying is idempotent, so a crash at any point
 * re-applies at most the uncommitted batch: no gap, no duplicate.
 * Subscribing happens in the background (see LogFollower): `ready()` says when it holds.
 */
@Injectable()
export class ProjectorService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Projector');
  private follower: LogFollower | null = null;
  private generationCheck: NodeJS.Timeout | null = null;
  private switching = false;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    this.follow();
    this.metrics?.gauge('cds_projector_lag_events', 'Events on the log not yet in the read models, by topic', ['topic'], async (set) => {
      const applied = this.readModels.appliedNextOffsets();
      for (const topic of TOPICS) {
        let behind = 0;
        for (const [partition, end] of await this.log.endOffsets(topic)) behind += Math.max(0, end - (applied.get(`${topic}:${partition}`) ?? 0));
        set({ topic }, behind);
      }
    });
    const live = this.readModels.liveGenerations();
    if (live) {
      this.generationCheck = setInterval(() => void this.followPromotedGeneration(live), 1000);
      this.generationCheck.unref();
    }
  }

  /**
   * Once a second: a rebuild in another process asks for its generation to be promoted
   * (takeOverPromotion), or promoted it already itself (no projector took its request in
   * time): stop, write into it from its stored positions on (a group named after it
   * replays the log; what it holds is skipped). The old generation's group had no part
   * in the rebuild, so nothing applied there is lost.
   */
  private async followPromotedGeneration(rm: ReadModels & LiveGenerations): Promise<void> {
    if (this.switching || !this.follower) return;
    this.switching = true;
    try {
      const requested = await rm.pendingPromotion();
      if (requested && requested.generation !== rm.generation() && (await requested.claim())) {
        await this.takeOverPromotion(rm, requested.generation);
        return;
      }
      const served = await rm.servedGeneration();
      if (!served || served === rm.generation()) return;
      await this.follower.stop();
      this.follower = null;
      await rm.switchGeneration(served);
    } catch (err) {
      this.logger.error(`switching to the promoted read-model generation failed: ${(err as Error).message}; projecting on`);
    } finally {
      if (!this.follower && this.generationCheck) this.follow();
      this.switching = false;
    }
  }

  /**
   * Promote a rebuilt generation without a moment where readers miss a write: stop
   * writing the served generation (what it holds is now fixed), bring the new one to the
   * log's end from its own positions and promote it (the rebuild's last steps, on the same
   * port), then follow the log into it. Writes answered meanwhile wait for their
   * projection as at any other time. On a failure nothing was switched: projecting goes on
   * into the served generation, and the rebuilt one is left for the operator (the rebuild
   * reports the failure) rather than half-promoted.
   */
  private async takeOverPromotion(rm: ReadModels & LiveGenerations, generation: string): Promise<void> {
    const started = Date.now();
    await this.follower!.stop();
    this.follower = null;
    let load: GenerationLoad | null = null;
    try {
      load = await rm.openGeneration(generation);
      const events = await replayPass(this.log, load, load.appliedNextOffsets(), this.logger);
      await load.promote();
      this.logger.log(`promoted read-model generation ${generation} after catching up ${events} events in ${Date.now() - started} ms`);
    } catch (err) {
      this.logger.error(`promoting read-model generation ${generation} failed: ${(err as Error).message}; staying on ${rm.generation()}`);
      return;
    } finally {
      await load?.close();
    }
    await rm.switchGeneration(generation);
  }

  private follow(): void {
    const rm = this.readModels;
    this.logger.log(`projecting into read-model generation ${rm.generation()}`);
    const subscription = {
      group: `projector-${rm.generation()}`,
      topics: [...TOPICS],
      startFrom: 'committed' as const,
      maxBatch: 1000,
      // Every read-model document comes from one aggregate, hence one partition, and
      // positions are per partition: partitions can be applied side by side.
      concurrentPartitions: 8,
    };
    const encoded = rm.encodedApply();
    const handler: LogHandler = encoded
      ? {
          ...subscription,
          // The events stay text here: the read models parse them on their own thread.
          encoded: true,
          handle: async (batch) => {
            const parked = await encoded.applyEncoded(batch);
            for (const message of parked) this.logger.error(message);
            return { applied: batch.length - parked.length, skipped: parked.length };
          },
        }
      : {
          ...subscription,
          handle: async (batch) => {
            const events = liftBatch(batch, this.logger);
            await rm.applyBatch(events);
            return { applied: events.length, skipped: batch.length - events.length };
          },
        };
    this.follower = new LogFollower(this.log, handler, this.logger, this.metrics?.logHandled);
  }

  /** Following the log, and both ends reachable. */
  async ready(): Promise<boolean> {
    if (!this.follower?.subscribed) return false;
    const [log, readModels] = await Promise.all([this.log.healthy().catch(() => false), this.readModels.healthy().catch(() => false)]);
    return log && readModels;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.generationCheck) clearInterval(this.generationCheck);
    this.generationCheck = null;
    await this.follower?.stop();
    this.follower = null;
  }
}
