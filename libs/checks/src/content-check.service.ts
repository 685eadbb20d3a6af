import { Inject, Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { tracing } from '@cds/tracing';
import { AppConfig } from '@cds/config';
import { invalid } from '@cds/errors';
import { DecisionDoc, DecisionReadModels, READ_MODELS } from '@cds/read-models';
import { EventWriter } from '@cds/write-path';
import { PolicyCatalog } from './policy-catalog.service';
import { Principal } from '@cds/auth';
import { CheckDecision, CheckRequestDto } from './check-request';
import { ContentScorer } from './content-scorer.service';
import { decisionEvent, ScoredPart } from './decision-parts';
import { IdempotentChecks } from './idempotent-checks';
import { ImageIntake } from './image-intake.service';

export function toCheckDecision(
  d: Pick<DecisionDoc, 'safe' | 'flagged' | 'action' | 'categories' | 'decisionId' | 'provider' | 'latency' | 'cost'>,
): CheckDecision {
  return {
    safe: d.safe,
    flagged: d.flagged,
    action: d.action,
    categories: d.categories,
    decisionId: d.decisionId,
    provider: d.provider,
    latency: d.latency,
    cost: d.cost,
  };
}

/**
 * POST /v1/check: score (text, or an image and the text read in it), decide, append the
 * decision durably, answer. The same requestId (or Idempotency-Key) from the same tenant
 * answers the first decision.
 */
@Injectable()
export class ContentCheck {
  private readonly idempotent: IdempotentChecks<CheckDecision>;

  constructor(
    @Inject(READ_MODELS) readModels: DecisionReadModels,
    private readonly catalog: PolicyCatalog,
    private readonly scorer: ContentScorer,
    private readonly images: ImageIntake,
    private readonly writer: EventWriter,
    private readonly config: AppConfig,
  ) {
    this.idempotent = new IdempotentChecks(readModels, toCheckDecision);
  }

  /** `idempotencyKey`: the Idempotency-Key header, used when the body has no requestId. */
  check(principal: Principal, request: CheckRequestDto, idempotencyKey: string | null): Promise<CheckDecision> {
    return this.idempotent.run(principal.tenantId, request.requestId, idempotencyKey, (decisionId, rid) => this.decide(principal, request, decisionId, rid));
  }

  private async decide(
    principal: Principal,
    r: CheckRequestDto,
    decisionId: string,
    requestId: string | null,
  ): Promise<{ decisionId: string; answer: CheckDecision }> {
    tracing().active().setAttribute('cds.decision_id', decisionId);
    const contentType = r.contentType ?? 'text';
    if (contentType === 'video') {
      throw invalid(
        'UNSUPPORTED_CONTENT_TYPE',
        'Unsupported content type',
        'a video is checked by POST /v1/video/check (a URL) or POST /v1/video/upload (a file), or as the video of POST /v1/check/multimodal',
      );
    }
    const language = r.language ?? 'en';
    this.scorer.assertLanguage(language);
    if (contentType === 'text' && r.content.length > this.config.MAX_TEXT_LENGTH) {
      throw invalid('CONTENT_TOO_LONG', 'Content too long', `text content is limited to ${this.config.MAX_TEXT_LENGTH} characters (got ${r.content.length})`);
    }
    const policy = await this.catalog.resolve(principal.tenantId, r.policyId);

    const started = performance.now();
    let part: ScoredPart;
    if (contentType === 'image') {
      const img = await this.images.prepare(principal.tenantId, r.content, language);
      const scored = await this.scorer.scoreImage(img.image, img.ocrText, language, policy.parsed);
      part = { contentType: 'image', contentRef: img.contentRef, ...scored, ocr: img.ocr, media: img.media };
    } else {
      part = { contentType: 'text', contentRef: null, ...(await this.scorer.scoreText(r.content, language, policy.parsed)), ocrText: null, media: null };
    }
    const verdicts = this.scorer.decideParts(policy.parsed, [part]);
    const latency = Math.round((performance.now() - started) * 1000) / 1000;

    const event = decisionEvent(
      {
        tenantId: principal.tenantId,
        decisionId,
        requestId,
        content: part.contentRef ?? r.content,
        contentType,
        language,
        metadata: r.metadata ?? {},
        policyId: policy.policyId,
        policyVersion: policy.version,
        latency,
      },
      [part],
      verdicts,
    );
    await this.writer.write('decisions', [event], principal.requestId);
    return { decisionId, answer: toCheckDecision(event.data) };
  }
}
