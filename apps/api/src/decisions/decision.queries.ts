import { Query } from '@nestjs/cqrs';
import { Principal } from '@cds/auth';
import { ListDecisionsQueryDto } from './decisions.dto';

export class GetDecisionQuery extends Query<ReturnType<typeof import('./stored-decision.view').storedDecision>> {
  constructor(
    readonly principal: Principal,
    readonly decisionId: string,
  ) {
    super();
  }
}

export class ListDecisionsQuery extends Query<{ decisions: ReturnType<typeof import('./stored-decision.view').storedDecision>[] }> {
  constructor(
    readonly principal: Principal,
    readonly filter: ListDecisionsQueryDto,
  ) {
    super();
  }
}

export class ReplayDecisionQuery extends Query<Record<string, unknown>> {
  constructor(
    readonly principal: Principal,
    readonly decisionId: string,
    readonly policyId: string,
  ) {
    super();
  }
}

export class DecisionCurlQuery extends Query<{ curl: string }> {
  constructor(
    readonly principal: Principal,
    readonly decisionId: string,
    readonly origin: { host: string; protocol: string },
  ) {
    super();
  }
}
