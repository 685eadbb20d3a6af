import { Injectable } from '@nestjs/common';
import { Principal } from '@cds/auth';
import { invalid } from '@cds/errors';
import { evaluate, parsePolicyYaml, scoresForDryRun } from '@cds/policy';
import { ContentScorer, PolicyCatalog } from '@cds/checks';
import { DryRunRequestDto } from './dry-run.dto';
import { DryRunResult } from './checks.answers';

/** POST /v1/check/dry-run: a policy (stored, or unsaved YAML) over mock scores or
 * mock signals. No provider is called and nothing is recorded. */
@Injectable()
export class DryRun {
  constructor(
    private readonly catalog: PolicyCatalog,
    private readonly scorer: ContentScorer,
  ) {}

  async run(principal: Principal, r: DryRunRequestDto): Promise<DryRunResult> {
    let policy;
    if (r.policy !== undefined) policy = parsePolicyYaml(r.policy);
    else if (r.policyId !== undefined) policy = (await this.catalog.resolve(principal.tenantId, r.policyId)).parsed;
    else throw invalid('VALIDATION_ERROR', 'Invalid request parameters', 'policyId is required unless an unsaved policy is given');
    const scores = scoresForDryRun({ mockScores: r.mockScores, mockSignals: r.mockSignals }, this.scorer.foldingForDryRun());
    const verdict = evaluate(policy, scores);
    return { dryRun: true, policyId: r.policy !== undefined ? null : (r.policyId ?? null), ...verdict };
  }
}
