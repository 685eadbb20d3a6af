import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '@cds/config';
import { invalid } from '@cds/errors';
import { DecisionCreated, envelope } from '@cds/events';
import { DecisionDoc, READ_MODELS, ReadModels } from '@cds/read-models';
import { EventWriter } from '@cds/write-path';
import { PolicyCatalog } from './policy-catalog.service';
import { CheckContentCommand } from './check-content.command';
import { CheckDecision } from './check-request';
import { idempotentDecisionId } from './decision-id';
import { LOCAL_PROVIDER, TextModeration } from './text-moderation.service';

export function toCheckDecision(d: Pick<DecisionDoc, 'safe' | 'flagged' | 'action' | 'categories' | 'decisionId' | 'provider' | 'latency' | 'cost'>): CheckDecision {
  return { safe: d.safe, flagged: d.flagged, action: d.action, categories: d.categories, decisionId: d.decisionId, provider: d.provider, latency: d.latency, cost: d.cost };
}

/**
 * POST /v1/check: score, decide, append the decision durably, answer. The same
 * requestId (or Idempotency-Key) from the same tenant answers the first decision.
 */
@CommandHandler(CheckContentCommand)
export class CheckContentHandler implements ICommandHandler<CheckContentCommand> {
  /** Checks of one tenant+requestId in flight, so concurrent retries share one decision. */
  private readonly inFlight = new Map<string, Promise<CheckDecision>>();

  constructor(
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    private readonly catalog: PolicyCatalog,
    private readonly moderation: TextModeration,
    private readonly writer: EventWriter,
    private readonly config: AppConfig,
  ) {}

  async execute(cmd: CheckContentCommand): Promise<CheckDecision> {
    const requestId = cmd.request.requestId ?? cmd.idempotencyKey;
    if (!requestId) return this.check(cmd, null);
    const k = `${cmd.principal.tenantId}\u0000${requestId}`;
    const running = this.inFlight.get(k);
    if (running) return running;
    const p = this.checkOnce(cmd, requestId).finally(() => this.inFlight.delete(k));
    this.inFlight.set(k, p);
    return p;
  }

  private async checkOnce(cmd: CheckContentCommand, requestId: string): Promise<CheckDecision> {
    const tenantId = cmd.principal.tenantId;
    const earlier = await this.readModels.findDecisionByRequestId(tenantId, requestId);
    if (earlier) return toCheckDecision(earlier);
    const mine = await this.check(cmd, requestId);
    // A retry served concurrently by another replica may have been first in the log:
    // the read models keep the first event of the decision id, so answer what they hold.
    const stored = await this.readModels.getDecision(tenantId, mine.decisionId);
    return stored ? toCheckDecision(stored) : mine;
  }

  private async check(cmd: CheckContentCommand, requestId: string | null): Promise<CheckDecision> {
    const { request: r, principal } = cmd;
    const contentType = r.contentType ?? 'text';
    if (contentType !== 'text') {
      throw invalid('UNSUPPORTED_CONTENT_TYPE', 'Unsupported content type', `contentType "${contentType}" is not supported yet; only "text" is`);
    }
    const language = r.language ?? 'en';
    this.moderation.assertLanguage(language);
    if (r.content.length > this.config.MAX_TEXT_LENGTH) {
      throw invalid('CONTENT_TOO_LONG', 'Content too long', `text content is limited to ${this.config.MAX_TEXT_LENGTH} characters (got ${r.content.length})`);
    }
    const policy = await this.catalog.resolve(principal.tenantId, r.policyId);

    const started = performance.now();
    const signals = this.moderation.signals(r.content, language);
    const verdict = this.moderation.decide(policy.parsed, signals);
    const latency = Math.round((performance.now() - started) * 1000) / 1000;

    const decisionId = requestId === null ? randomUUID() : idempotentDecisionId(principal.tenantId, requestId);
    const event: DecisionCreated = envelope('decision.created', 1, principal.tenantId, decisionId, {
      decisionId, requestId, content: r.content, contentType: 'text', language, metadata: r.metadata ?? {},
      policyId: policy.policyId, policyVersion: policy.version, provider: LOCAL_PROVIDER, signals,
      categories: verdict.categories, action: verdict.action, safe: verdict.safe, flagged: verdict.flagged, latency, cost: 0,
    });
    await this.writer.write('decisions', [event]);
    return toCheckDecision(event.data);
  }
}
