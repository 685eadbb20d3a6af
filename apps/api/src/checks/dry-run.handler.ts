import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { invalid } from '@cds/errors';
import { evaluate, parsePolicyYaml, scoresForDryRun } from '@cds/policy';
import { ContentScorer, PolicyCatalog } from '@cds/checks';
import { DryRunQuery, DryRunResult } from './dry-run.query';

/** POST /v1/check/dry-run: a policy (stored, or unsaved YAML) over mock scores or
 * mock signals. No provider is called and nothing is recorded. */
@QueryHandler(DryRunQuery)
export class DryRunHandler implements IQueryHandler<DryRunQuery> {
  constructor(
    private readonly catalog: PolicyCatalog,
    private readonly scorer: ContentScorer,
  ) {}

  async execute({ principal, request: r }: DryRunQuery): Promise<DryRunResult> {
    let policy;
    if (r.policy !== undefined) policy = parsePolicyYaml(r.policy);
    else if (r.policyId !== undefined) policy = (await this.catalog.resolve(principal.tenantId, r.policyId)).parsed;
    else throw invalid('VALIDATION_ERROR', 'Invalid request parameters', 'policyId is required unless an unsaved policy is given');
    const scores = scoresForDryRun({ mockScores: r.mockScores, mockSignals: r.mockSignals }, this.scorer.foldingForDryRun());
    const verdict = evaluate(policy, scores);
    return { dryRun: true, policyId: r.policy !== undefined ? null : (r.policyId ?? null), ...verdict };
  }
}
