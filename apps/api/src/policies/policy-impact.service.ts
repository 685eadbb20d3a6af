import { Inject, Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Principal } from '@cds/auth';
import { ContentScorer, PolicyCatalog, ReplayedDecision, summarizeImpact } from '@cds/checks';
import { invalid } from '@cds/errors';
import { parsePolicyYaml } from '@cds/policy';
import { DecisionDoc, DecisionReadModels, READ_MODELS } from '@cds/read-models';
import { IMPACT_DEFAULT_LIMIT, PolicyImpactDto } from './policies.dto';

const PAGE = 1000;

/**
 * POST /v1/policies/{policyId}/impact: the decisions made under a policy in a window,
 * replayed under a candidate policy from their stored signals (no provider is called,
 * nothing is recorded), and every action change they would undergo.
 */
@Injectable()
export class PolicyImpact {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: DecisionReadModels,
    private readonly catalog: PolicyCatalog,
    private readonly scorer: ContentScorer,
  ) {}

  async report(p: Principal, policyId: string, dto: PolicyImpactDto) {
    const candidate = parsePolicyYaml(dto.yamlContent);
    const current = await this.catalog.resolve(p.tenantId, policyId);
    const from = dto.from ? new Date(dto.from).toISOString() : undefined;
    const to = dto.to ? new Date(dto.to).toISOString() : undefined;
    if (from && to && from > to) throw invalid('VALIDATION_ERROR', 'Invalid request parameters', 'from must not be after to');
    const limit = dto.limit ?? IMPACT_DEFAULT_LIMIT;

    // Newest first, one more than the limit: whether the window was cut.
    const docs: DecisionDoc[] = [];
    for (let offset = 0; docs.length <= limit; offset += PAGE) {
      const page = await this.readModels.listDecisions(p.tenantId, { limit: Math.min(PAGE, limit + 1 - docs.length), offset, policyId, from, to });
      docs.push(...page);
      if (page.length < PAGE) break;
    }
    const cut = docs.length > limit;
    if (cut) docs.length = limit;

    const started = performance.now();
    const replayed: ReplayedDecision[] = docs.map((d) => ({
      decisionId: d.decisionId,
      before: { action: d.action, categories: d.categories },
      after: this.scorer.decideParts(candidate, d.parts).overall,
    }));
    const summary = summarizeImpact(replayed, current.parsed, candidate);
    const replayMs = Math.round((performance.now() - started) * 1000) / 1000;
    return {
      policyId,
      candidate: { name: candidate.name, ...(candidate.version !== undefined ? { version: candidate.version } : {}) },
      window: { from: from ?? null, to: to ?? null, limit, cut, oldest: docs.at(-1)?.timestamp ?? null, newest: docs[0]?.timestamp ?? null },
      ...summary,
      replayMs,
    };
  }
}
