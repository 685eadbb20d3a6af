import { tracing } from '@cds/tracing';
import type { DomainEvent } from '@cds/events';
import type { JobOutcome, LiftedEvent } from '@cds/event-log';
import type { BatchDoc, ReadModels } from '@cds/read-models';

/** A job the api accepted (an async batch, a video): whose, which, and the request's trace. */
export interface AcceptedJob {
  stored: LiftedEvent;
  event: DomainEvent;
  jobId: string;
  /** The span the job runs in, e.g. `batch.job`, with its attributes. */
  span: string;
  attributes: Record<string, string>;
}

/**
 * The frame of the worker's jobs: once the read models hold the accepted event, a job
 * already finished is skipped (a rerun after a crash); the rest runs in the trace of the
 * request that accepted it, given the job's document (its checkpoints). A job records a
 * lasting failure itself (`batch.failed`, `video.failed`); whatever it throws (an outage,
 * an append the log refused) hands it back for later.
 */
export async function runAcceptedJob(readModels: ReadModels, job: AcceptedJob, run: (doc: BatchDoc | null) => Promise<void>): Promise<JobOutcome> {
  const { stored, event } = job;
  try {
    await readModels.waitFor([stored], 30_000);
    const doc = await readModels.getBatch(event.tenantId, job.jobId);
    if (doc && doc.status !== 'processing') return 'skipped';
    await tracing().continueFrom(event.traceparent, job.span, { ...job.attributes, 'cds.request_id': event.requestId ?? undefined }, () => run(doc));
    return 'applied';
  } catch (err) {
    return { retryLater: (err as Error)?.message ?? String(err) };
  }
}
