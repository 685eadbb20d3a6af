import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { Principal } from '@cds/auth';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';
import { PolicyImpactDto, SavePolicyDto } from './policies.dto';
import { PolicyImpact } from './policy-impact.service';
import { PoliciesService } from './policies.service';

@Controller('v1/policies')
@RequireScope('policies')
export class PoliciesController {
  constructor(private readonly policies: PoliciesService, private readonly impact: PolicyImpact) {}

  /** 201 when the policy is new, 200 when it replaced an earlier version. */
  @Post()
  async save(@CurrentPrincipal() p: Principal, @Body() body: SavePolicyDto, @Res({ passthrough: true }) reply: any) {
    const { created, policy } = await this.policies.save(p, body.policyId, body.yamlContent);
    reply.status(created ? 201 : 200);
    return policy;
  }

  @Get()
  async list(@CurrentPrincipal() p: Principal) {
    return { policies: await this.policies.list(p) };
  }

  /** What a candidate policy would change in the decisions made under this one. */
  @Post(':policyId/impact')
  @HttpCode(200)
  report(@CurrentPrincipal() p: Principal, @Param('policyId') policyId: string, @Body() body: PolicyImpactDto) {
    return this.impact.report(p, policyId, body);
  }

  @Get(':policyId')
  get(@CurrentPrincipal() p: Principal, @Param('policyId') policyId: string) {
    return this.policies.get(p, policyId);
  }
}
