import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Metrics } from '@cds/metrics';
import { DomainError } from '@cds/errors';
import { BatchAccepted, BatchCompleted, BatchFailed, envelope } from '@cds/events';
import { EVENT_LOG, EventLog, LogFollower } from '@cds/event-log';
import { READ_MODELS, ReadModels } from '@cds/read-models';
import { EventWriter } from '@cds/write-path';
import { BatchChecker } from './batch-checker.service';
import { followAcceptedJobs } from './accepted-job';

/**
 * Checks accepted async batches (consumer group `batch-runner` on `jobs`) and records the
 * outcome as `batch.completed` / `batch.failed`, which the webhook dispatcher delivers to
 * the batch's webhookUrl. A worker job: the worker process runs it (with the check
 * engine: policy, text model, decision events), in embedded mode the one process does.
 * A batch is checkpointed only once its outcome is on the log; a rerun after a crash
 * answers the same decisions (one requestId per item) and a batch already finished is
 * skipped.
 */
@Injectable()
export class AsyncBatchRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AsyncBatchRunner');
  private follower: LogFollower | null = null;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    private readonly checker: BatchChecker,
    private readonly writer: EventWriter,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    const { log, readModels, logger, metrics } = this;
    this.follower = followAcceptedJobs(
      { log, readModels, logger, metrics },
      {
        group: 'batch-runner',
        maxBatch: 10,
        eventType: 'batch.accepted',
        jobId: (e) => e.data.batchId,
        span: 'batch.job',
        attributes: (e) => ({ 'cds.batch_id': e.data.batchId }),
        run: (e) => this.run(e),
      },
    );
  }

  /** Following `jobs` in its consumer group. */
  ready(): boolean {
    return !!this.follower?.subscribed;
  }

  private async run(e: BatchAccepted): Promise<void> {
    const { batchId, policyId, items } = e.data;
    const principal = { keyId: e.data.acceptedBy, tenantId: e.tenantId, scopes: ['checks' as const], bootstrap: false, requestId: e.requestId };
    try {
      await this.checker.assertPolicy(e.tenantId, policyId);
    } catch (err) {
      // An outage (503) is not the batch's fault: thrown, it hands the job back for later
      // (followAcceptedJobs). Only a lasting answer (e.g. no such policy) fails it.
      if (!(err instanceof DomainError) || err.kind === 'unavailable') throw err;
      const failed: BatchFailed = envelope('batch.failed', 1, e.tenantId, batchId, {
        batchId,
        policyId,
        error: { code: err.code, message: err.message, details: err.details },
      });
      await this.writer.write('jobs', [failed], e.requestId);
      this.metrics?.jobs.inc({ kind: 'batch', outcome: 'failed' });
      return;
    }
    const results = await this.checker.check(principal, policyId, items, { requestIdOf: (i) => `batch:${batchId}:${i}`, rethrowUnavailable: true });
    const failedCount = results.filter((r) => 'error' in r).length;
    const done: BatchCompleted = envelope('batch.completed', 1, e.tenantId, batchId, {
      batchId,
      policyId,
      results,
      succeeded: results.length - failedCount,
      failed: failedCount,
    });
    await this.writer.write('jobs', [done], e.requestId);
    this.metrics?.jobs.inc({ kind: 'batch', outcome: 'completed' });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.follower?.stop();
    this.follower = null;
  }
}
