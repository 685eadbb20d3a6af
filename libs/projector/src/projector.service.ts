import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DomainEvent, EventSchemaError, TOPICS, upcast } from '@cds/events';
import { EVENT_LOG, EventLog, StoredEvent, Subscription } from '@cds/event-log';
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
 * generation, so a fresh generation is filled from offset 0.
 */
@Injectable()
export class ProjectorService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Projector');
  private subscription: Subscription | null = null;

  constructor(@Inject(EVENT_LOG) private readonly log: EventLog, @Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.log.subscribe({
      group: `projector-${this.readModels.generation()}`,
      topics: [...TOPICS],
      startFrom: 'committed',
      maxBatch: 1000,
      handler: (batch) => this.readModels.applyBatch(liftBatch(batch, this.logger)),
    });
    this.logger.log(`projecting into read-model generation ${this.readModels.generation()}`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }
}
