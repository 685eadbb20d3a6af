import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Topic } from '@cds/events';
import { EVENT_LOG, EventLog, LogFollower, StoredEvent } from '@cds/event-log';

/** The streams the worker acts on (webhook dispatch, deliveries, async jobs). */
export const WORKER_TOPICS: Topic[] = ['webhooks', 'deliveries', 'jobs'];

/**
 * The worker's consumer group. No job handler exists yet, so every event is
 * acknowledged as having nothing to do; what holds already is that the process joins
 * its group (in the background, see LogFollower), keeps its checkpoint, and leaves the
 * group cleanly on shutdown.
 */
@Injectable()
export class WorkerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Worker');
  private follower: LogFollower | null = null;

  constructor(@Inject(EVENT_LOG) private readonly log: EventLog) {}

  onApplicationBootstrap(): void {
    this.follower = new LogFollower(this.log, { group: 'worker', topics: WORKER_TOPICS, startFrom: 'committed', handler: (b) => this.handle(b) }, this.logger);
  }

  async ready(): Promise<boolean> {
    return !!this.follower?.subscribed && (await this.log.healthy().catch(() => false));
  }

  private async handle(batch: StoredEvent[]): Promise<void> {
    this.logger.debug(`${batch.length} event(s) with nothing to do yet`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.follower?.stop();
    this.follower = null;
  }
}
