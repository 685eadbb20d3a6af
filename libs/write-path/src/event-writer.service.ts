import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Metrics } from '@cds/metrics';
import { EventEnvelope, Topic, validateEvent } from '@cds/events';
import { EVENT_LOG, EventLog, EventLogAppendError, LogPosition } from '@cds/event-log';
import { DomainError } from '@cds/errors';
import { tracing } from '@cds/tracing';

/**
 * The write path of every endpoint: validate, append durably, answer. It does not wait
 * for the projection: the client's next read sees its write because every query waits
 * until the read models hold the log up to its end (ConsistentReadModels).
 */
@Injectable()
export class EventWriter {
  private readonly logger = new Logger('EventWriter');

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  /** Appends `events` durably; each carries `requestId` (the request they are written for,
   * see Principal.requestId) unless it names one already. */
  async write(topic: Topic, events: EventEnvelope[], requestId?: string | null): Promise<LogPosition[]> {
    const traces = tracing();
    // The trace this write belongs to (the request's, a job's), for the work that follows the events.
    const traceparent = traces.enabled ? traces.traceparent() : undefined;
    for (const e of events) {
      if (requestId && e.requestId === undefined) e.requestId = requestId;
      if (traceparent && e.traceparent === undefined) e.traceparent = traceparent;
      validateEvent(e);
    }
    let positions: LogPosition[];
    const started = process.hrtime.bigint();
    try {
      positions = traces.enabled
        ? await traces.span('eventlog.append', { 'cds.topic': topic, 'cds.events': events.length }, () => this.log.append(topic, events))
        : await this.log.append(topic, events);
      this.metrics?.appendDuration.observe({ topic }, Number(process.hrtime.bigint() - started) / 1e9);
    } catch (err) {
      this.metrics?.appendErrors.inc({ topic, code: err instanceof EventLogAppendError && !err.maybeAppended ? 'unavailable' : 'uncertain' });
      this.logger.error({ msg: `append to ${topic} failed: ${(err as Error).message}`, requestId: requestId ?? undefined });
      if (err instanceof EventLogAppendError && !err.maybeAppended) {
        throw new DomainError('unavailable', 'EVENT_LOG_UNAVAILABLE', 'The event log is unavailable', 'nothing was recorded; retry with backoff');
      }
      // Sent but not acknowledged (the broker went away mid-write): it may have landed.
      throw new DomainError(
        'unavailable',
        'EVENT_LOG_UNCERTAIN',
        'The event log did not confirm the write',
        'it may have been recorded; retry with the same requestId or Idempotency-Key to get the one result, not a second one',
      );
    }
    if (this.metrics) countDecisions(this.metrics, events);
    return positions;
  }
}

/** Decisions by action, content type and provider, and the categories that triggered. */
function countDecisions(metrics: Metrics, events: EventEnvelope[]): void {
  for (const e of events) {
    if (e.type !== 'decision.created') continue;
    const d = e.data as { action: string; contentType: string; provider: string; categories: { category: string; triggered: boolean }[] };
    metrics.decisions.inc({ action: d.action, content_type: d.contentType, provider: d.provider });
    for (const c of d.categories) if (c.triggered) metrics.categoriesTriggered.inc({ category: c.category });
  }
}
