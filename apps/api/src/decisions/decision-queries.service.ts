import { Inject, Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Principal } from '@cds/auth';
import { AppConfig } from '@cds/config';
import { invalid, notFound } from '@cds/errors';
import { DecisionDoc, DecisionReadModels, READ_MODELS } from '@cds/read-models';
import { ContentScorer, itemResult, PolicyCatalog } from '@cds/checks';
import { buildCurl } from './curl-command';
import { ListDecisionsQueryDto } from './decisions.dto';
import { storedDecision } from './stored-decision.view';
import { ReplayedDecision } from './decisions.answers';

/** The stored decisions of the caller's tenant: read, listed, replayed under another
 * policy, turned into a curl command. Reads only: nothing here appends an event. */
@Injectable()
export class DecisionQueries {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: DecisionReadModels,
    private readonly catalog: PolicyCatalog,
    private readonly scorer: ContentScorer,
    private readonly config: AppConfig,
  ) {}

  async get(principal: Principal, decisionId: string) {
    return storedDecision(await this.load(principal.tenantId, decisionId));
  }

  /** Newest first. `from`/`to` are inclusive bounds on the decision's timestamp; the audit
   * filters (userId, category, q) narrow it further. */
  async list(principal: Principal, f: ListDecisionsQueryDto) {
    const from = f.from ? new Date(f.from).toISOString() : undefined;
    const to = f.to ? new Date(f.to).toISOString() : undefined;
    if (from && to && from > to) throw invalid('VALIDATION_ERROR', 'Invalid request parameters', 'from must not be after to');
    const docs = await this.readModels.listDecisions(principal.tenantId, {
      limit: f.limit ?? 50,
      offset: f.offset ?? 0,
      action: f.action,
      policyId: f.policyId,
      from,
      to,
      userId: f.userId,
      category: f.category,
      q: f.q,
    });
    return { decisions: docs.map(storedDecision) };
  }

  /** Re-evaluates the stored provider signals (per item, per provider) under another
   * policy. No provider is called and no new decision is recorded: the answer is what that
   * policy would have decided for this decision, which keeps its id. */
  async replay(principal: Principal, decisionId: string, policyId: string): Promise<ReplayedDecision> {
    const original = await this.load(principal.tenantId, decisionId);
    const policy = await this.catalog.resolve(principal.tenantId, policyId);
    const started = performance.now();
    const { overall: verdict, parts } = this.scorer.decideParts(policy.parsed, original.parts);
    const latency = Math.round((performance.now() - started) * 1000) / 1000;
    return {
      safe: verdict.safe,
      flagged: verdict.flagged,
      action: verdict.action,
      categories: verdict.categories,
      decisionId: original.decisionId,
      provider: original.provider,
      latency,
      cost: 0,
      policyId: policy.policyId,
      policyVersion: policy.version,
      replayed: true,
      original: { policyId: original.policyId, policyVersion: original.policyVersion, action: original.action, safe: original.safe },
      // Each item again, for a multimodal decision (the spec's Multi-modal results).
      ...(original.contentType === 'multimodal' ? { results: original.parts.map((p, i) => itemResult({ ...p, ...parts[i] })) } : {}),
    };
  }

  async curl(principal: Principal, decisionId: string, origin: { host: string; protocol: string }) {
    const d = await this.load(principal.tenantId, decisionId);
    const base = this.config.PUBLIC_BASE_URL ?? `${origin.protocol === 'https' ? 'https' : 'http'}://${origin.host}`;
    return { curl: buildCurl(base, d) };
  }

  private async load(tenantId: string, decisionId: string): Promise<DecisionDoc> {
    const d = await this.readModels.getDecision(tenantId, decisionId);
    if (!d) throw notFound('DECISION_NOT_FOUND', 'Decision not found', `no decision ${decisionId} in this tenant`);
    return d;
  }
}
