import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Metrics } from '@cds/metrics';
import { tracing } from '@cds/tracing';
import { performance } from 'node:perf_hooks';
import { mediaRef } from '@cds/blob-store';
import { DomainError, invalid } from '@cds/errors';
import { envelope, VideoAccepted, VideoFrameScore } from '@cds/events';
import { EVENT_LOG, EventLog, LogFollower } from '@cds/event-log';
import { BatchDoc, DecisionReadModels, READ_MODELS, ReadModels, WebhookReadModels } from '@cds/read-models';
import { EventWriter } from '@cds/write-path';
import { ContentScorer } from '../content-scorer.service';
import { ImageIntake } from '../image-intake.service';
import { PolicyCatalog } from '../policy-catalog.service';
import { probeFacts, VideoScanner } from './video-scanner.service';
import { judgeFrames, videoDecisionEvent } from './video-decision';
import { followAcceptedJobs } from '../accepted-job';

/**
 * Checks accepted videos (consumer group `video-runner` on `jobs`): download (URLs),
 * probe, sample and score frames with checkpoints (`video.progress`), cut evidence for
 * flagged frames, then record the decision (`decision.created`, contentType video) and
 * `video.completed` — or `video.failed` with the reason. A worker killed mid-video gets
 * the job again and resumes after its last checkpoint: every frame counted once, one
 * decision (its id is the job's), one completion.
 */
@Injectable()
export class VideoJobRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('VideoJobRunner');
  private follower: LogFollower | null = null;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(READ_MODELS) private readonly readModels: DecisionReadModels & WebhookReadModels & Pick<ReadModels, 'waitFor'>,
    private readonly catalog: PolicyCatalog,
    private readonly scanner: VideoScanner,
    private readonly scorer: ContentScorer,
    private readonly writer: EventWriter,
    private readonly images: ImageIntake,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    const { log, readModels, logger, metrics } = this;
    this.follower = followAcceptedJobs(
      { log, readModels, logger, metrics },
      {
        group: 'video-runner',
        maxBatch: 1,
        eventType: 'video.accepted',
        jobId: (e) => e.data.decisionId,
        span: 'video.job',
        attributes: (e) => ({ 'cds.decision_id': e.data.decisionId }),
        run: (e, doc) => this.run(e, doc),
      },
    );
  }

  ready(): boolean {
    return !!this.follower?.subscribed;
  }

  private async run(e: VideoAccepted, job: BatchDoc | null): Promise<void> {
    const d = e.data;
    const started = performance.now();
    try {
      // A decision already recorded (a crash right after it): only the completion is missing.
      const recorded = await this.readModels.getDecision(e.tenantId, d.decisionId);
      if (recorded) return await this.complete(e, recorded.action, recorded.safe, recorded.flagged, recorded.parts.length, job?.stoppedOnBlock ?? false);

      const policy = await this.catalog.resolve(e.tenantId, d.policyId);
      const sha256 = job?.videoProgress?.mediaSha256 ?? (d.source.kind === 'upload' ? d.source.sha256 : await this.scanner.download(e.tenantId, d.source.url));
      const file = await this.scanner.fileOf(e.tenantId, sha256);
      if (!file) throw invalid('MEDIA_NOT_FOUND', 'Video not found', `the video sha256:${sha256} is no longer kept`);
      const probe = await this.scanner.probe(file);
      if (probe.durationSeconds > d.maxDurationSeconds) {
        throw invalid(
          'VIDEO_TOO_LONG',
          'Video too long',
          `the video lasts ${probe.durationSeconds.toFixed(1)} s, past maxDurationSeconds ${d.maxDurationSeconds}; nothing of it was checked`,
        );
      }
      const checkpoint = async (frames: VideoFrameScore[], framesTotal: number) => {
        await this.writer.write(
          'jobs',
          [
            envelope('video.progress', 1, e.tenantId, d.decisionId, {
              decisionId: d.decisionId,
              mediaSha256: sha256,
              probe: probeFacts(probe),
              framesTotal,
              framesProcessed: frames.length,
              frames,
            }),
          ],
          e.requestId,
        );
      };
      const scan = await tracing().span('video.frames', { 'cds.mode': d.extraction.mode, 'cds.max_frames': d.extraction.maxFrames }, async (span) => {
        const s = await this.scanner.scan({
          file,
          probe,
          extraction: d.extraction,
          language: d.language,
          policy: policy.parsed,
          done: job?.videoProgress?.frames ?? [],
          checkpoint,
        });
        span.setAttribute('cds.frames', s.frames.length);
        return s;
      });
      if (scan.frames.length === 0) throw invalid('VIDEO_PROCESSING_FAILED', 'Video could not be processed', 'no frame could be decoded');
      // The last checkpoint holds every frame: status reads the final count from it.
      await checkpoint(scan.frames, scan.frames.length);
      const verdicts = judgeFrames(this.scorer, policy.parsed, scan.frames);
      const evidence = new Map<number, string>();
      for (const [i, v] of verdicts.parts.entries()) {
        if (v.flagged) evidence.set(scan.frames[i].index, await this.scanner.evidence(e.tenantId, file, scan.frames[i].timestamp));
      }
      const decision = videoDecisionEvent(
        {
          tenantId: e.tenantId,
          decisionId: d.decisionId,
          contentRef: d.source.kind === 'url' ? d.source.url : mediaRef(sha256),
          language: d.language,
          metadata: d.metadata,
          policyId: policy.policyId,
          policyVersion: policy.version,
          latency: Math.round(performance.now() - started),
          ocr: await this.images.ocrFacts(d.language),
        },
        scan.frames,
        verdicts,
        evidence,
      );
      await this.writer.write('decisions', [decision], e.requestId);
      await this.complete(e, decision.data.action, decision.data.safe, decision.data.flagged, scan.frames.length, scan.stoppedOnBlock);
    } catch (err) {
      // An outage (503) is not the video's fault: thrown, it hands the job back for later (followAcceptedJobs).
      if (!(err instanceof DomainError) || err.kind === 'unavailable') throw err;
      this.logger.warn({ msg: `video ${d.decisionId} failed: ${err.code} ${err.details}`, requestId: e.requestId });
      await this.writer.write(
        'jobs',
        [
          envelope('video.failed', 1, e.tenantId, d.decisionId, {
            decisionId: d.decisionId,
            policyId: d.policyId,
            error: { code: err.code, message: err.message, details: err.details },
          }),
        ],
        e.requestId,
      );
      this.metrics?.jobs.inc({ kind: 'video', outcome: 'failed' });
    }
  }

  private async complete(
    e: VideoAccepted,
    action: 'allow' | 'warn' | 'flag' | 'block',
    safe: boolean,
    flagged: boolean,
    frames: number,
    stoppedOnBlock: boolean,
  ) {
    await this.writer.write(
      'jobs',
      [
        envelope('video.completed', 1, e.tenantId, e.data.decisionId, {
          decisionId: e.data.decisionId,
          policyId: e.data.policyId,
          action,
          safe,
          flagged,
          framesProcessed: frames,
          stoppedOnBlock,
        }),
      ],
      e.requestId,
    );
    this.metrics?.jobs.inc({ kind: 'video', outcome: 'completed' });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.follower?.stop();
    this.follower = null;
  }
}
