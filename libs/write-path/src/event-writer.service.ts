import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventEnvelope, Topic, validateEvent } from '@cds/events';
import { EVENT_LOG, EventLog, EventLogAppendError, LogPosition } from '@cds/event-log';
import { READ_MODELS, ReadModels } from '@cds/read-models';
import { AppConfig } from '@cds/config';
import { DomainError } from '@cds/errors';

/**
 * The write path of every endpoint: validate, append durably, then wait (bounded)
 * until the projection has caught up, so the client's next read sees its write.
 */
@Injectable()
export class EventWriter {
  private readonly logger = new Logger('EventWriter');

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    private readonly config: AppConfig,
  ) {}

  async write(topic: Topic, events: EventEnvelope[]): Promise<LogPosition[]> {
    for (const e of events) validateEvent(e);
    let positions: LogPosition[];
    try {
      positions = await this.log.append(topic, events);
    } catch (err) {
      this.logger.error(`append to ${topic} failed: ${(err as Error).message}`);
      if (err instanceof EventLogAppendError && !err.maybeAppended) {
        throw new DomainError('unavailable', 'EVENT_LOG_UNAVAILABLE', 'The event log is unavailable', 'nothing was recorded; retry with backoff');
      }
      // Sent but not acknowledged (the broker went away mid-write): it may have landed.
      throw new DomainError(
        'unavailable', 'EVENT_LOG_UNCERTAIN', 'The event log did not confirm the write',
        'it may have been recorded; retry with the same requestId or Idempotency-Key to get the one result, not a second one',
      );
    }
    const caughtUp = await this.readModels.waitFor(positions, this.config.PROJECTION_WAIT_MS);
    if (!caughtUp) this.logger.warn(`projection of ${topic} did not reach ${positions.map((p) => p.offset).join(',')} within ${this.config.PROJECTION_WAIT_MS} ms`);
    return positions;
  }
}
