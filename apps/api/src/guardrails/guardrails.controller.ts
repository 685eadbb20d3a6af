import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { Principal } from '@cds/auth';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';
import { GuardrailDecisions } from './guardrail-decisions.service';
import { GuardrailMetrics } from './guardrail-metrics.service';
import { GuardrailPolicies } from './guardrail-policies.service';
import { GuardrailSessions } from './guardrail-sessions.service';

type Json = Record<string, unknown>;

/** The agent-guardrail endpoints. Bodies are validated by the engine's own validators
 * (422 with a code naming the field), so they are taken as plain objects here. */
@Controller('v1/agent/guardrails')
@RequireScope('guardrails')
export class GuardrailsController {
  constructor(
    private readonly decisions: GuardrailDecisions,
    private readonly policies: GuardrailPolicies,
    private readonly metricsOf: GuardrailMetrics,
    private readonly sessionsOf: GuardrailSessions,
  ) {}

  @Post('skill-vetting')
  @HttpCode(200)
  vetSkill(@CurrentPrincipal() p: Principal, @Body() body: Json) {
    return this.decisions.decide('skill_vetting', p, body);
  }

  @Post('action-authorize')
  @HttpCode(200)
  authorize(@CurrentPrincipal() p: Principal, @Body() body: Json) {
    return this.decisions.decide('action_authorization', p, body);
  }

  @Get('policy')
  getPolicy(@CurrentPrincipal() p: Principal, @Query('projectId') projectId: unknown) {
    return this.policies.get(p, projectId);
  }

  @Put('policy')
  putPolicy(@CurrentPrincipal() p: Principal, @Body() body: Json) {
    return this.policies.put(p, body);
  }

  @Get('policy/history')
  history(@CurrentPrincipal() p: Principal, @Query('projectId') projectId: unknown) {
    return this.policies.history(p, projectId);
  }

  @Post('policy/rollback')
  @HttpCode(200)
  rollback(@CurrentPrincipal() p: Principal, @Body() body: Json) {
    return this.policies.rollback(p, body);
  }

  @Get('metrics')
  metrics(@CurrentPrincipal() p: Principal, @Query('projectId') projectId: unknown, @Query('days') days: unknown) {
    return this.metricsOf.metrics(p, projectId, days);
  }

  @Post('sessions')
  @HttpCode(201)
  mintSession(@CurrentPrincipal() p: Principal, @Body() body: Json) {
    return this.sessionsOf.mint(p, body);
  }
}
