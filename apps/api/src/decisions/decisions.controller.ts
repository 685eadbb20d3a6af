import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Principal } from '@cds/auth';
import { CurrentPrincipal, RequestOrigin, RequireScope } from '../http/auth.decorators';
import { DecisionCurlQuery, GetDecisionQuery, ListDecisionsQuery, ReplayDecisionQuery } from './decision.queries';
import { ListDecisionsQueryDto, ReplayDto } from './decisions.dto';

@Controller('v1/decisions')
@RequireScope('decisions')
export class DecisionsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  list(@CurrentPrincipal() p: Principal, @Query() q: ListDecisionsQueryDto) {
    return this.queries.execute(new ListDecisionsQuery(p, q));
  }

  @Get(':decisionId')
  get(@CurrentPrincipal() p: Principal, @Param('decisionId') id: string) {
    return this.queries.execute(new GetDecisionQuery(p, id));
  }

  @Post(':decisionId/replay')
  @HttpCode(200)
  replay(@CurrentPrincipal() p: Principal, @Param('decisionId') id: string, @Body() body: ReplayDto) {
    return this.queries.execute(new ReplayDecisionQuery(p, id, body.policyId));
  }

  @Get(':decisionId/curl')
  curl(@CurrentPrincipal() p: Principal, @Param('decisionId') id: string, @RequestOrigin() origin: { host: string; protocol: string }) {
    return this.queries.execute(new DecisionCurlQuery(p, id, origin));
  }
}
