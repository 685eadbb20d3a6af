import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Principal } from '@cds/auth';
import { ApiAnswer, ApiBodyErrors, ApiErrors } from '../openapi/api-docs.decorators';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';
import { PolicyImpactDto, SavePolicyDto } from './policies.dto';
import { PolicyImpact } from './policy-impact.service';
import { PoliciesService } from './policies.service';
import { ImpactReport, Policy, PolicyList } from './policies.answers';

@ApiTags('policies')
@Controller('v1/policies')
@RequireScope('policies')
export class PoliciesController {
  constructor(
    private readonly policies: PoliciesService,
    private readonly impact: PolicyImpact,
  ) {}

  /** 201 when the policy is new, 200 when it replaced an earlier version. */
  @Post()
  @ApiOperation({ summary: 'Create or update a policy from YAML (201 new, 200 replaced); invalid YAML is a 422 naming the line' })
  @ApiAnswer(201, Policy, 'Created')
  @ApiAnswer(200, Policy, 'Replaced an earlier version')
  @ApiBodyErrors()
  async save(@CurrentPrincipal() p: Principal, @Body() body: SavePolicyDto, @Res({ passthrough: true }) reply: any): Promise<Policy> {
    const { created, policy } = await this.policies.save(p, body.policyId, body.yamlContent);
    reply.status(created ? 201 : 200);
    return policy;
  }

  @Get()
  @ApiOperation({ summary: 'Every policy of this tenant, built-in ones included' })
  @ApiAnswer(200, PolicyList)
  async list(@CurrentPrincipal() p: Principal): Promise<PolicyList> {
    return { policies: await this.policies.list(p) };
  }

  /** What a candidate policy would change in the decisions made under this one. */
  @Post(':policyId/impact')
  @HttpCode(200)
  @ApiOperation({ summary: 'What a candidate policy would change in the decisions made under this one (replayed from stored signals)' })
  @ApiAnswer(200, ImpactReport)
  @ApiBodyErrors()
  @ApiErrors(404)
  report(@CurrentPrincipal() p: Principal, @Param('policyId') policyId: string, @Body() body: PolicyImpactDto): Promise<ImpactReport> {
    return this.impact.report(p, policyId, body);
  }

  @Get(':policyId')
  @ApiOperation({ summary: 'One policy' })
  @ApiAnswer(200, Policy)
  @ApiErrors(404)
  get(@CurrentPrincipal() p: Principal, @Param('policyId') policyId: string): Promise<Policy> {
    return this.policies.get(p, policyId);
  }
}
