import { Body, Controller, Get, Param, Post, Res } from '@nestjs/common';
import { Principal } from '@cds/auth';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';
import { SavePolicyDto } from './policies.dto';
import { PoliciesService } from './policies.service';

@Controller('v1/policies')
@RequireScope('policies')
export class PoliciesController {
  constructor(private readonly policies: PoliciesService) {}

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

  @Get(':policyId')
  get(@CurrentPrincipal() p: Principal, @Param('policyId') policyId: string) {
    return this.policies.get(p, policyId);
  }
}
