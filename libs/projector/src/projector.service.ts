import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DomainEvent, EventSchemaError, TOPICS, upcast } from '@cds/events';
import { EVENT_LOG, EventLog, LogFollower, StoredEvent } from '@cds/event-log';
import { ProjectedEvent, READ_MODELS, ReadModels } from '@cds/read-models';

/** Lift stored events to their current schema. An event that cannot be read is parked
 * (logged with its position and skipped) rather than blocking the stream forever. */
export function liftBatch(batch: StoredEvent[], logger: Pick<Logger, 'error'>): ProjectedEvent[] {
  const out: ProjectedEvent[] = [];
  for (const s of batch) {
    let event: DomainEvent;
    try {
      event = upcast(s.event);
    } catch (err) {
      if (!(err instanceof EventSchemaError)) throw err;
      logger.error(`parked ${s.topic}/${s.partition}@${s.offset} (${s.event?.type}): ${err.message}`);
      continue;
    }
    out.push({ topic: s.topic, partition: s.partition, offset: s.offset, event });
  }
  return out;
}

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

  constructor(@Inject(EVENT_LOG) private readonly log: EventLog, @Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  onApplicationBootstrap(): void {
    this.follow();
    if (this.readModels.servedGeneration) {
      this.generationCheck = setInterval(() => void this.followPromotedGeneration(), 1000);
      this.generationCheck.unref();
    }
  }

  /**
   * A rebuild in another process promoted a new generation: stop, write into it from its
   * stored positions on (a group named after it replays the log; what it holds is skipped).
   * The old generation's group had no part in the rebuild, so nothing applied there is lost.
   */
  private async followPromotedGeneration(): Promise<void> {
    if (this.switching || !this.follower) return;
    this.switching = true;
    try {
      const served = await this.readModels.servedGeneration!();
      if (!served || served === this.readModels.generation()) return;
      await this.follower.stop();
      this.follower = null;
      await this.readModels.switchGeneration!(served);
    } catch (err) {
      this.logger.error(`switching to the promoted read-model generation failed: ${(err as Error).message}; projecting on`);
    } finally {
      if (!this.follower && this.generationCheck) this.follow();
      this.switching = false;
    }
  }

  private follow(): void {
    this.logger.log(`projecting into read-model generation ${this.readModels.generation()}`);
    this.follower = new LogFollower(
      this.log,
      {
        group: `projector-${this.readModels.generation()}`,
        topics: [...TOPICS],
        startFrom: 'committed',
        maxBatch: 1000,
        handler: (batch) => this.readModels.applyBatch(liftBatch(batch, this.logger)),
      },
      this.logger,
    );
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
