import { Inject, Injectable } from '@nestjs/common';
import { Principal } from '@cds/auth';
import { tracing } from '@cds/tracing';
import { performance } from 'node:perf_hooks';
import { AppConfig } from '@cds/config';
import { DomainError, invalid } from '@cds/errors';
import { DecisionPart } from '@cds/events';
import { DecisionDoc, DecisionReadModels, READ_MODELS } from '@cds/read-models';
import { EventWriter } from '@cds/write-path';
import { ContentScorer, mergeBy } from './content-scorer.service';
import { VideoScanner } from './video/video-scanner.service';
import { ParsedPolicy } from '@cds/policy';
import { decisionEvent, ScoredPart } from './decision-parts';
import { IdempotentChecks } from './idempotent-checks';
import { ImageIntake } from './image-intake.service';
import { MAX_MULTIMODAL_IMAGES, MultimodalDecision, MultimodalItemResult, MultimodalRequestDto } from './multimodal-request';
import { PolicyCatalog } from './policy-catalog.service';

export function itemResult(p: DecisionPart): MultimodalItemResult {
  return {
    contentType: p.contentType,
    ...(p.contentRef !== null ? { contentRef: p.contentRef } : {}),
    safe: p.safe,
    flagged: p.flagged,
    action: p.action,
    categories: p.categories,
  };
}

export function toMultimodalDecision(d: Pick<DecisionDoc, 'decisionId' | 'safe' | 'flagged' | 'action' | 'parts' | 'latency' | 'cost'>): MultimodalDecision {
  return {
    decisionId: d.decisionId,
    safe: d.safe,
    flagged: d.flagged,
    action: d.action,
    results: d.parts.map(itemResult),
    totalLatency: d.latency,
    totalCost: d.cost,
  };
}

/**
 * POST /v1/check/multimodal: the text and up to ten images, scored concurrently, one
 * decision (one event, one stored decision, one set of webhooks) whose action is the
 * most severe over the items. Any item that cannot be read fails the request with that
 * item's error, naming it: a decision over part of what was sent would not be the
 * decision that was asked for. A `video` member is sampled in the request (a few frames).
 */
@Injectable()
export class MultimodalCheck {
  private readonly idempotent: IdempotentChecks<MultimodalDecision>;

  constructor(
    @Inject(READ_MODELS) readModels: DecisionReadModels,
    private readonly catalog: PolicyCatalog,
    private readonly scorer: ContentScorer,
    private readonly images: ImageIntake,
    private readonly writer: EventWriter,
    private readonly config: AppConfig,
    private readonly videos: VideoScanner,
  ) {
    this.idempotent = new IdempotentChecks(readModels, toMultimodalDecision);
  }

  /** `idempotencyKey`: the Idempotency-Key header, used when the body has no requestId. */
  check(principal: Principal, request: MultimodalRequestDto, idempotencyKey: string | null): Promise<MultimodalDecision> {
    return this.idempotent.run(principal.tenantId, request.requestId, idempotencyKey, (decisionId, rid) => this.decide(principal, request, decisionId, rid));
  }

  /** The video member, answered in the request: the same pipeline as POST /v1/video/check
   * (egress-guarded download, probe, one ffmpeg run, the image pool, OCR) with a small
   * frame budget; its frames merged, worst wins. */
  private async videoPart(tenantId: string, url: string, language: string, policy: ParsedPolicy): Promise<ScoredPart> {
    const sha256 = await this.videos.download(tenantId, url);
    const file = await this.videos.fileOf(tenantId, sha256);
    if (!file) throw new DomainError('unavailable', 'MEDIA_STORE_UNAVAILABLE', 'The video could not be read back', 'retry');
    const probe = await this.videos.probe(file);
    if (probe.durationSeconds > this.config.VIDEO_MAX_DURATION_SECONDS) {
      throw invalid(
        'VIDEO_TOO_LONG',
        'Video too long',
        `the video lasts ${probe.durationSeconds.toFixed(1)} s, past ${this.config.VIDEO_MAX_DURATION_SECONDS} s`,
      );
    }
    const frameInterval = Math.max(0.1, probe.durationSeconds / MULTIMODAL_VIDEO_FRAMES);
    const scan = await this.videos.scan({
      file,
      probe,
      language,
      policy,
      extraction: { mode: 'interval', frameInterval, maxFrames: MULTIMODAL_VIDEO_FRAMES, stopOnBlock: false },
    });
    const texts = scan.frames.map((f) => f.ocrText).filter((t): t is string => !!t);
    return {
      contentType: 'video',
      contentRef: url,
      signals: mergeBy(scan.frames.map((f) => f.signals)),
      cost: 0,
      ocrText: texts.length > 0 ? texts.join('\n') : null,
      ocr: scan.frames.some((f) => f.ocrText !== null) ? await this.images.ocrFacts(language) : null,
      media: null,
    };
  }

  private async decide(principal: Principal, r: MultimodalRequestDto, decisionId: string, requestId: string | null) {
    tracing().active().setAttribute('cds.decision_id', decisionId);
    const images = r.images ?? [];
    if (r.text === undefined && images.length === 0 && r.video === undefined) {
      throw invalid('VALIDATION_ERROR', 'Invalid request parameters', 'at least one of text, images or video is required');
    }
    if (images.length > MAX_MULTIMODAL_IMAGES) {
      throw invalid('TOO_MANY_IMAGES', 'Too many images', `at most ${MAX_MULTIMODAL_IMAGES} images per multimodal check (got ${images.length})`);
    }
    const language = r.context?.language ?? 'en';
    this.scorer.assertLanguage(language);
    if (r.text !== undefined && r.text.length > this.config.MAX_TEXT_LENGTH) {
      throw invalid('CONTENT_TOO_LONG', 'Content too long', `text is limited to ${this.config.MAX_TEXT_LENGTH} characters (got ${r.text.length})`);
    }
    const policy = await this.catalog.resolve(principal.tenantId, r.policyId);

    const started = performance.now();
    const text: Promise<ScoredPart>[] =
      r.text === undefined
        ? []
        : [
            this.scorer
              .scoreText(r.text, language, policy.parsed)
              .then((s) => ({ contentType: 'text' as const, contentRef: null, ...s, ocrText: null, media: null })),
          ];
    const pictures = images.map((content, i) =>
      this.images
        .prepare(principal.tenantId, content, language)
        .then(async (img): Promise<ScoredPart> => ({
          contentType: 'image',
          contentRef: img.contentRef,
          ...(await this.scorer.scoreImage(img.image, img.ocrText, language, policy.parsed)),
          ocr: img.ocr,
          media: img.media,
        }))
        .catch((err: unknown) => {
          throw namedItem(err, `images[${i}]`);
        }),
    );
    const video: Promise<ScoredPart>[] =
      r.video === undefined
        ? []
        : [
            this.videoPart(principal.tenantId, r.video, language, policy.parsed).catch((err: unknown) => {
              throw namedItem(err, 'video');
            }),
          ];
    const parts = await Promise.all([...text, ...pictures, ...video]);
    const verdicts = this.scorer.decideParts(policy.parsed, parts);
    const latency = Math.round((performance.now() - started) * 1000) / 1000;

    // The context is kept with the metadata; its userId answers the decisions' userId filter.
    const metadata: Record<string, unknown> = { ...(r.metadata ?? {}) };
    if (r.context) metadata.context = { ...r.context };
    if (r.context?.userId !== undefined && metadata.userId === undefined) metadata.userId = r.context.userId;
    const event = decisionEvent(
      {
        tenantId: principal.tenantId,
        decisionId,
        requestId,
        content: r.text ?? '',
        contentType: 'multimodal',
        language,
        metadata,
        policyId: policy.policyId,
        policyVersion: policy.version,
        latency,
      },
      parts,
      verdicts,
    );
    await this.writer.write('decisions', [event], principal.requestId);
    return { decisionId, answer: toMultimodalDecision({ ...event.data }) };
  }
}

/** Frames a multimodal check samples from its video, spread over the whole of it. */
export const MULTIMODAL_VIDEO_FRAMES = 8;

/** The item's own error, its details prefixed with which item it was. */
function namedItem(err: unknown, item: string): unknown {
  if (!(err instanceof DomainError)) return err;
  return new DomainError(err.kind, err.code, err.message, `${item}: ${err.details}`);
}
