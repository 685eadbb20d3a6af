import { Body, Controller, Get, Param, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Principal } from '@cds/auth';
import { ApiAnswer, Endpoint } from '../openapi/api-docs.decorators';
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
  @Endpoint('Create or update a policy from YAML (201 new, 200 replaced); invalid YAML is a 422 naming the line', Policy, { status: 201, body: true })
  @ApiAnswer(200, Policy, 'Replaced an earlier version')
  async save(@CurrentPrincipal() p: Principal, @Body() body: SavePolicyDto, @Res({ passthrough: true }) reply: any): Promise<Policy> {
    const { created, policy } = await this.policies.save(p, body.policyId, body.yamlContent);
    reply.status(created ? 201 : 200);
    return policy;
  }

  @Get()
  @Endpoint('Every policy of this tenant, built-in ones included', PolicyList)
  async list(@CurrentPrincipal() p: Principal): Promise<PolicyList> {
    return { policies: await this.policies.list(p) };
  }

  /** What a candidate policy would change in the decisions made under this one. */
  @Post(':policyId/impact')
  @Endpoint('What a candidate policy would change in the decisions made under this one (replayed from stored signals)', ImpactReport, {
    body: true,
    errors: [404],
  })
  report(@CurrentPrincipal() p: Principal, @Param('policyId') policyId: string, @Body() body: PolicyImpactDto): Promise<ImpactReport> {
    return this.impact.report(p, policyId, body);
  }

  @Get(':policyId')
  @Endpoint('One policy', Policy, { errors: [404] })
  get(@CurrentPrincipal() p: Principal, @Param('policyId') policyId: string): Promise<Policy> {
    return this.policies.get(p, policyId);
  }
}
