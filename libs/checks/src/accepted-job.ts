import type { Logger } from '@nestjs/common';
import type { Metrics } from '@cds/metrics';
import { SpanAttributes, tracing } from '@cds/tracing';
import type { DomainEvent } from '@cds/events';
import { EventLog, JobHandler, jobLogHandler, JobOutcome, LiftedEvent, LogFollower } from '@cds/event-log';
import type { BatchDoc, ReadModels, WebhookReadModels } from '@cds/read-models';

type AcceptedType = 'batch.accepted' | 'video.accepted';
type EventOf<T extends AcceptedType> = Extract<DomainEvent, { type: T }>;

/** A job the worker runs for what the api accepted (an async batch, a video). */
export interface AcceptedJob<T extends AcceptedType> {
  /** Its consumer group on `jobs`, and how many events it is handed at once. */
  group: string;
  maxBatch: number;
  eventType: T;
  /** The job's document in the read models (its status, its checkpoints). */
  jobId(event: EventOf<T>): string;
  /** The span the job runs in, continuing the trace of the request that accepted it. */
  span: string;
  attributes(event: EventOf<T>): SpanAttributes;
  /** Runs it, given its document. Records a lasting failure itself (`batch.failed`,
   * `video.failed`); what it throws (an outage, an append refused) hands it back for later. */
  run(event: EventOf<T>, doc: BatchDoc | null): Promise<void>;
}

interface Deps {
  log: EventLog;
  readModels: WebhookReadModels & Pick<ReadModels, 'waitFor'>;
  logger: Logger;
  metrics?: Metrics;
}

/**
 * Follows `jobs` for a job's accepted events: once the read models hold the event, a job
 * already finished is skipped (a rerun after a crash), the rest runs in the trace of the
 * request that accepted it; the outcomes are counted (cds_log_events_handled_total).
 */
export function followAcceptedJobs<T extends AcceptedType>({ log, readModels, logger, metrics }: Deps, job: AcceptedJob<T>): LogFollower {
  const handle = async (event: EventOf<T>, stored: LiftedEvent): Promise<JobOutcome> => {
    const { tenantId, requestId, traceparent } = event as DomainEvent;
    try {
      await readModels.waitFor([stored], 30_000);
      const doc = await readModels.getBatch(tenantId, job.jobId(event));
      if (doc && doc.status !== 'processing') return 'skipped';
      const attributes = { ...job.attributes(event), 'cds.request_id': requestId ?? undefined };
      await tracing().continueFrom(traceparent, job.span, attributes, () => job.run(event, doc));
      return 'applied';
    } catch (err) {
      return { retryLater: (err as Error)?.message ?? String(err) };
    }
  };
  const declared: JobHandler<T> = {
    group: job.group,
    topics: ['jobs'],
    startFrom: 'committed',
    maxBatch: job.maxBatch,
    eventType: job.eventType,
    handle,
  };
  return new LogFollower(log, jobLogHandler(declared, logger), logger, metrics?.logHandled);
}
