import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiQueryFrom, Endpoint } from '../openapi/api-docs.decorators';
import { Principal } from '@cds/auth';
import { CurrentPrincipal, RequestOrigin, RequireScope } from '../http/auth.decorators';
import { DecisionQueries } from './decision-queries.service';
import { ListDecisionsQueryDto, ReplayDto } from './decisions.dto';
import { CurlCommand, DecisionList, ReplayedDecision, StoredDecision } from './decisions.answers';

@ApiTags('decisions')
@Controller('v1/decisions')
@RequireScope('decisions')
export class DecisionsController {
  constructor(private readonly decisions: DecisionQueries) {}

  @Get()
  @Endpoint('Stored decisions, newest first, filtered by action, policy, category, time, user or full text', DecisionList, { errors: [422] })
  @ApiQueryFrom(ListDecisionsQueryDto)
  list(@CurrentPrincipal() p: Principal, @Query() q: ListDecisionsQueryDto): Promise<DecisionList> {
    return this.decisions.list(p, q);
  }

  @Get(':decisionId')
  @Endpoint('One stored decision, with its raw signals per provider and the items scored', StoredDecision, { errors: [404] })
  get(@CurrentPrincipal() p: Principal, @Param('decisionId') id: string): Promise<StoredDecision> {
    return this.decisions.get(p, id);
  }

  @Post(':decisionId/replay')
  @Endpoint('The decision made again under another policy, from its stored signals (no provider call, nothing recorded)', ReplayedDecision, {
    body: true,
    errors: [404],
  })
  replay(@CurrentPrincipal() p: Principal, @Param('decisionId') id: string, @Body() body: ReplayDto): Promise<ReplayedDecision> {
    return this.decisions.replay(p, id, body.policyId);
  }

  @Get(':decisionId/curl')
  @Endpoint('A curl command reproducing the check', CurlCommand, { errors: [404] })
  curl(@CurrentPrincipal() p: Principal, @Param('decisionId') id: string, @RequestOrigin() origin: { host: string; protocol: string }): Promise<CurlCommand> {
    return this.decisions.curl(p, id, origin);
  }
}
