import { Inject, Injectable } from '@nestjs/common';
import { deriveEvidenceKey, evidencePath, Principal, principalIdentity, verifyEvidence } from '@cds/auth';
import { tracing } from '@cds/tracing';
import { BLOB_STORE, BlobStore } from '@cds/blob-store';
import { ContentScorer, PolicyCatalog, segmentsOf, VideoScanner } from '@cds/checks';
import { AppConfig } from '@cds/config';
import { DomainError, invalid, notFound } from '@cds/errors';
import { envelope, timeOrderedId, VideoAccepted, VideoExtraction, VideoSource } from '@cds/events';
import { BatchDoc, DecisionDoc, DecisionReadModels, READ_MODELS, WebhookReadModels } from '@cds/read-models';
import { generateWebhookSecret } from '@cds/webhooks';
import { checkEgressUrl, EgressRefusedError } from '@cds/egress';
import { EventWriter } from '@cds/write-path';
import { MultipartForm } from '../http/multipart';
import { AdminKey } from '../keys/admin-key';
import { WebhookSecrets } from '../webhooks/webhook-secrets.service';
import { assertDeliverableUrl } from '../webhooks/webhook-url';
import { VideoCheckDto, VideoOptionsDto } from './video.dto';
import { uploadOptions } from './video-upload-options';
import { VideoCompleted, VideoResult, VideoStatus } from './video.answers';

/** A rough cost of one sampled frame (model, share of OCR and decoding), for estimates. */
const SECONDS_PER_FRAME = 0.15;
const SECONDS_TO_START = 2;
const UPLOAD_FIELDS = [
  'policyId',
  'webhookUrl',
  'maxDurationSeconds',
  'language',
  'metadata',
  'extractionStrategy',
  'frameInterval',
  'maxFrames',
  'mode',
  'stopOnBlock',
];

/**
 * The video endpoints. A video is a job on the log (`video.accepted`), checked by the
 * worker; status and result are read from the job and, once completed, the decision.
 */
@Injectable()
export class VideoService {
  private readonly evidenceKey: Buffer;

  constructor(
    @Inject(READ_MODELS) private readonly readModels: DecisionReadModels & WebhookReadModels,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    private readonly catalog: PolicyCatalog,
    private readonly scorer: ContentScorer,
    private readonly scanner: VideoScanner,
    private readonly writer: EventWriter,
    private readonly secrets: WebhookSecrets,
    private readonly config: AppConfig,
    admin: AdminKey,
  ) {
    this.evidenceKey = deriveEvidenceKey(config.EVIDENCE_URL_SECRET ?? admin.key);
  }

  /** POST /v1/video/check: the URL is vetted now and fetched by the worker. */
  async check(p: Principal, dto: VideoCheckDto) {
    await this.assertOptions(p, dto);
    try {
      await checkEgressUrl(dto.videoUrl, this.secrets.egress);
    } catch (err) {
      if (err instanceof EgressRefusedError) throw new DomainError('invalid', 'EGRESS_REFUSED', 'Video URL refused', `videoUrl: ${err.message}`);
      throw err;
    }
    const extraction = this.extraction(dto);
    return this.accept(p, dto, { kind: 'url', url: dto.videoUrl }, extraction, extraction.maxFrames);
  }

  /** POST /v1/video/upload: streamed into the blob store (413 past VIDEO_MAX_BYTES), probed
   * now so a file that is not a video, or is too long, is refused at submission. */
  async upload(p: Principal, form: MultipartForm) {
    const fields: Record<string, string> = {};
    let stored: { sha256: string; bytes: number; filename: string | null } | null = null;
    for await (const part of form.parts()) {
      if (part.kind === 'field') {
        if (UPLOAD_FIELDS.includes(part.name)) fields[part.name] = part.value;
        continue;
      }
      if (part.name !== 'video' || stored)
        throw invalid('VALIDATION_ERROR', 'Invalid request parameters', `unexpected file field "${part.name}": send one file, named video`);
      const blob = await this.blobs.putStream(p.tenantId, part.stream, { maxBytes: this.config.VIDEO_MAX_BYTES, tooLargeCode: 'VIDEO_TOO_LARGE' });
      stored = { sha256: blob.sha256, bytes: blob.bytes, filename: part.filename || null };
    }
    if (!stored) throw invalid('VALIDATION_ERROR', 'Invalid request parameters', 'video: a file field named video is required');
    if (stored.bytes === 0) throw invalid('INVALID_VIDEO', 'Invalid video', 'the uploaded file is empty');
    const dto = uploadOptions(fields);
    await this.assertOptions(p, dto);
    const extraction = this.extraction(dto);
    const file = await this.blobs.pathOf(p.tenantId, stored.sha256);
    if (!file) throw new DomainError('unavailable', 'MEDIA_STORE_UNAVAILABLE', 'The upload could not be read back', 'retry');
    const probe = await this.scanner.probe(file);
    const maxDuration = dto.maxDurationSeconds ?? this.config.VIDEO_MAX_DURATION_SECONDS;
    if (probe.durationSeconds > maxDuration) {
      throw invalid('VIDEO_TOO_LONG', 'Video too long', `the video lasts ${probe.durationSeconds.toFixed(1)} s, past maxDurationSeconds ${maxDuration}`);
    }
    const estimated = this.scanner.plan(probe, extraction).estimatedFrames;
    return this.accept(p, dto, { kind: 'upload', sha256: stored.sha256, filename: stored.filename, bytes: stored.bytes }, extraction, estimated);
  }

  async status(p: Principal, decisionId: string): Promise<VideoStatus> {
    const job = await this.job(p, decisionId);
    return {
      decisionId,
      status: job.status,
      progress: progressOf(job),
      estimatedCompletion: estimatedCompletion(job),
      ...(job.error ? { error: job.error } : {}),
    };
  }

  /** 200 with the result once completed; 202 with the progress while processing; 200 with
   * `status: failed` and the reason when it failed. */
  async result(p: Principal, decisionId: string): Promise<{ status: number; body: VideoResult }> {
    const job = await this.job(p, decisionId);
    if (job.status === 'processing') {
      return { status: 202, body: { decisionId, status: 'processing' as const, progress: progressOf(job), estimatedCompletion: estimatedCompletion(job) } };
    }
    // The projection sets status failed together with the failed event's error (projection.ts).
    if (job.status === 'failed') return { status: 200, body: { decisionId, status: 'failed' as const, error: job.error! } };
    const d = await this.readModels.getDecision(p.tenantId, decisionId);
    if (!d) throw new DomainError('unavailable', 'READ_MODELS_UNAVAILABLE', 'The decision is not readable yet', 'retry in a moment');
    return { status: 200, body: this.resultBody(d, job) };
  }

  /** GET /v1/video/evidence/...: the signed URL is the credential (no API key). */
  async evidence(q: { tenant: unknown; decisionId: unknown; frame: unknown; expires: unknown; sig: unknown }): Promise<Buffer> {
    const verdict = verifyEvidence(q, this.evidenceKey, Math.floor(Date.now() / 1000));
    if (!verdict.ok) {
      if (verdict.reason === 'expired')
        throw new DomainError('forbidden', 'EVIDENCE_URL_EXPIRED', 'Evidence URL expired', 'ask GET /v1/video/result for a fresh one');
      throw new DomainError('forbidden', 'EVIDENCE_URL_INVALID', 'Evidence URL invalid', 'the URL was altered or is incomplete');
    }
    const { tenantId, decisionId, frame } = verdict.claim;
    const d = await this.readModels.getDecision(tenantId, decisionId);
    const sha = d?.parts.find((x) => x.frame?.frameNumber === frame)?.frame?.evidenceSha256;
    const bytes = sha ? await this.blobs.get(tenantId, sha) : null;
    if (!bytes) throw notFound('EVIDENCE_NOT_FOUND', 'Evidence not found', 'no evidence for this frame (not flagged, or deleted after MEDIA_RETENTION_DAYS)');
    return bytes;
  }

  private resultBody(d: DecisionDoc, job: BatchDoc): VideoCompleted {
    const expiresAt = Math.floor(Date.now() / 1000) + this.config.EVIDENCE_URL_TTL_SECONDS;
    const base = (this.config.PUBLIC_BASE_URL ?? '').replace(/\/+$/, '');
    const results = d.parts
      .filter((x) => x.frame)
      .map((x) => {
        const frame = x.frame!;
        const evidence =
          x.flagged && frame.evidenceSha256
            ? {
                url: base + evidencePath({ tenantId: d.tenantId, decisionId: d.decisionId, frame: frame.frameNumber, expiresAt }, this.evidenceKey),
                expiresAt: new Date(expiresAt * 1000).toISOString(),
              }
            : undefined;
        return {
          frameNumber: frame.frameNumber,
          timestamp: frame.timestamp,
          safe: x.safe,
          flagged: x.flagged,
          action: x.action,
          categories: x.categories,
          ...(x.ocrText ? { ocrText: x.ocrText } : {}),
          ...(evidence ? { evidence } : {}),
        };
      });
    return {
      decisionId: d.decisionId,
      status: 'completed',
      safe: d.safe,
      flagged: d.flagged,
      action: d.action,
      categories: d.categories,
      results,
      segments: segmentsOf(d.parts),
      stoppedOnBlock: job.stoppedOnBlock ?? false,
      framesProcessed: results.length,
      totalLatency: d.latency,
      totalCost: d.cost,
      policyId: d.policyId,
      policyVersion: d.policyVersion,
      provider: d.provider,
    };
  }

  private async job(p: Principal, decisionId: string): Promise<BatchDoc> {
    const job = await this.readModels.getBatch(p.tenantId, decisionId);
    if (!job || job.kind !== 'video') throw notFound('VIDEO_NOT_FOUND', 'Video not found', `no video decision ${decisionId} in this tenant`);
    return job;
  }

  private async assertOptions(p: Principal, dto: VideoOptionsDto): Promise<void> {
    this.scorer.assertLanguage(dto.language ?? 'en');
    if (dto.webhookUrl !== undefined) await assertDeliverableUrl(dto.webhookUrl, this.secrets.egress, 'webhookUrl');
    await this.catalog.resolve(p.tenantId, dto.policyId);
  }

  private extraction(dto: VideoOptionsDto): VideoExtraction {
    const s = dto.extractionStrategy ?? {};
    const maxFrames = s.maxFrames ?? this.config.VIDEO_DEFAULT_MAX_FRAMES;
    if (maxFrames > this.config.VIDEO_FRAMES_CAP) {
      throw invalid('VALIDATION_ERROR', 'Invalid request parameters', `extractionStrategy.maxFrames must not be greater than ${this.config.VIDEO_FRAMES_CAP}`);
    }
    return { mode: s.mode ?? 'interval', frameInterval: s.frameInterval ?? this.config.VIDEO_FRAME_INTERVAL, maxFrames, stopOnBlock: s.stopOnBlock ?? false };
  }

  private async accept(p: Principal, dto: VideoOptionsDto, source: VideoSource, extraction: VideoExtraction, estimatedFrames: number) {
    const registered = dto.webhookUrl === undefined ? undefined : (await this.readModels.listWebhooks(p.tenantId)).find((w) => w.url === dto.webhookUrl);
    const webhookSecret = dto.webhookUrl !== undefined && !registered ? generateWebhookSecret() : null;
    const decisionId = timeOrderedId();
    tracing().active().setAttribute('cds.decision_id', decisionId);
    const event: VideoAccepted = envelope('video.accepted', 1, p.tenantId, decisionId, {
      decisionId,
      policyId: dto.policyId,
      source,
      webhookUrl: dto.webhookUrl ?? null,
      signingWebhookId: registered?.webhookId ?? null,
      secretCiphertext: webhookSecret ? this.secrets.seal(webhookSecret) : null,
      extraction,
      maxDurationSeconds: dto.maxDurationSeconds ?? this.config.VIDEO_MAX_DURATION_SECONDS,
      language: dto.language ?? 'en',
      metadata: dto.metadata ?? {},
      estimatedFrames,
      acceptedBy: principalIdentity(p),
    });
    await this.writer.write('jobs', [event], p.requestId);
    return {
      decisionId,
      status: 'processing' as const,
      estimatedTime: Math.round((SECONDS_TO_START + estimatedFrames * SECONDS_PER_FRAME) * 10) / 10,
      estimatedFrames,
      estimatedCost: 0,
      ...(webhookSecret ? { webhookSecret } : registered ? { signingWebhookId: registered.webhookId } : {}),
    };
  }
}

function progressOf(job: BatchDoc) {
  const processed = job.status === 'completed' ? (job.videoProgress?.framesProcessed ?? job.totalItems) : (job.videoProgress?.framesProcessed ?? 0);
  const total = Math.max(processed, job.videoProgress?.framesTotal ?? job.totalItems);
  return {
    framesProcessed: processed,
    framesTotal: total,
    percentComplete: job.status === 'completed' ? 100 : total === 0 ? 0 : Math.min(99, Math.floor((processed * 100) / total)),
  };
}

/** Finished: when it finished. Else from the pace so far (or the per-frame estimate before
 * the first checkpoint). */
function estimatedCompletion(job: BatchDoc): string {
  if (job.completedAt) return job.completedAt;
  const started = Date.parse(job.createdAt);
  const progress = job.videoProgress;
  if (progress && progress.framesProcessed > 0) {
    const perFrame = (Date.parse(progress.progressAt) - started) / progress.framesProcessed;
    return new Date(Date.parse(progress.progressAt) + perFrame * Math.max(0, progress.framesTotal - progress.framesProcessed)).toISOString();
  }
  return new Date(started + (SECONDS_TO_START + job.totalItems * SECONDS_PER_FRAME) * 1000).toISOString();
}
