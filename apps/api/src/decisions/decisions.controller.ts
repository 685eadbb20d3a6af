import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, ApiBodyErrors, ApiErrors, ApiQueryFrom } from '../openapi/api-docs.decorators';
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
  @ApiOperation({ summary: 'Stored decisions, newest first, filtered by action, policy, category, time, user or full text' })
  @ApiQueryFrom(ListDecisionsQueryDto)
  @ApiAnswer(200, DecisionList)
  @ApiErrors(422)
  list(@CurrentPrincipal() p: Principal, @Query() q: ListDecisionsQueryDto): Promise<DecisionList> {
    return this.decisions.list(p, q);
  }

  @Get(':decisionId')
  @ApiOperation({ summary: 'One stored decision, with its raw signals per provider and the items scored' })
  @ApiAnswer(200, StoredDecision)
  @ApiErrors(404)
  get(@CurrentPrincipal() p: Principal, @Param('decisionId') id: string): Promise<StoredDecision> {
    return this.decisions.get(p, id);
  }

  @Post(':decisionId/replay')
  @HttpCode(200)
  @ApiOperation({ summary: 'The decision made again under another policy, from its stored signals (no provider call, nothing recorded)' })
  @ApiAnswer(200, ReplayedDecision)
  @ApiBodyErrors()
  @ApiErrors(404)
  replay(@CurrentPrincipal() p: Principal, @Param('decisionId') id: string, @Body() body: ReplayDto): Promise<ReplayedDecision> {
    return this.decisions.replay(p, id, body.policyId);
  }

  @Get(':decisionId/curl')
  @ApiOperation({ summary: 'A curl command reproducing the check' })
  @ApiAnswer(200, CurlCommand)
  @ApiErrors(404)
  curl(@CurrentPrincipal() p: Principal, @Param('decisionId') id: string, @RequestOrigin() origin: { host: string; protocol: string }): Promise<CurlCommand> {
    return this.decisions.curl(p, id, origin);
  }
}
