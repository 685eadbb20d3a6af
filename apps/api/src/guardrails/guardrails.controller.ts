import { Body, Controller, Get, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Principal } from '@cds/auth';
import { Endpoint } from '../openapi/api-docs.decorators';
import { ref } from '../openapi/schema-builders';
import { ActionAuthorizeRequest, GuardrailPolicyPut, GuardrailRollbackRequest, PROJECT_ID, SessionRequest, SkillVettingRequest } from './guardrails.requests';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';
import { GuardrailDecisions } from './guardrail-decisions.service';
import { GuardrailMetrics, MAX_METRICS_DAYS } from './guardrail-metrics.service';
import { GuardrailPolicies } from './guardrail-policies.service';
import { GuardrailSessions } from './guardrail-sessions.service';
import {
  GuardrailDecision,
  GuardrailMetrics as GuardrailMetricsAnswer,
  GuardrailPolicyAnswer,
  GuardrailPolicyHistory,
  GuardrailRollback,
  SessionToken,
} from './guardrails.answers';

type Json = Record<string, unknown>;

const PROJECT_ID_QUERY = ApiQuery({
  name: 'projectId',
  required: false,
  schema: PROJECT_ID,
  description: 'required with an API key; a session token names its own',
});

/** The agent-guardrail endpoints. Bodies are validated by the engine's own validators
 * (422 with a code naming the field), so they are taken as plain objects here. */
@ApiTags('agent guardrails')
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
  @Endpoint('Vet a skill before it is installed', GuardrailDecision, { body: true })
  @ApiBody({ schema: ref(SkillVettingRequest) })
  vetSkill(@CurrentPrincipal() p: Principal, @Body() body: Json): Promise<GuardrailDecision> {
    return this.decisions.decide('skill_vetting', p, body);
  }

  @Post('action-authorize')
  @Endpoint('Authorize one agent action (shell command, file write, network call) before it runs', GuardrailDecision, { body: true })
  @ApiBody({ schema: ref(ActionAuthorizeRequest) })
  authorize(@CurrentPrincipal() p: Principal, @Body() body: Json): Promise<GuardrailDecision> {
    return this.decisions.decide('action_authorization', p, body);
  }

  @Get('policy')
  @Endpoint("The project's guardrail policy", GuardrailPolicyAnswer, { errors: [404, 422] })
  @PROJECT_ID_QUERY
  getPolicy(@CurrentPrincipal() p: Principal, @Query('projectId') projectId: unknown): Promise<GuardrailPolicyAnswer> {
    return this.policies.get(p, projectId);
  }

  @Put('policy')
  @Endpoint("Set the project's guardrail policy (a new version in its history)", GuardrailPolicyAnswer, { body: true })
  @ApiBody({ schema: ref(GuardrailPolicyPut) })
  putPolicy(@CurrentPrincipal() p: Principal, @Body() body: Json): Promise<GuardrailPolicyAnswer> {
    return this.policies.put(p, body);
  }

  @Get('policy/history')
  @Endpoint("The versions of the project's guardrail policy, newest first", GuardrailPolicyHistory, { errors: [404, 422] })
  @PROJECT_ID_QUERY
  history(@CurrentPrincipal() p: Principal, @Query('projectId') projectId: unknown): Promise<GuardrailPolicyHistory> {
    return this.policies.history(p, projectId);
  }

  @Post('policy/rollback')
  @Endpoint('Restore an earlier version (appended as a new version)', GuardrailRollback, { body: true, errors: [404] })
  @ApiBody({ schema: ref(GuardrailRollbackRequest) })
  rollback(@CurrentPrincipal() p: Principal, @Body() body: Json): Promise<GuardrailRollback> {
    return this.policies.rollback(p, body);
  }

  @Get('metrics')
  @Endpoint('Guardrail decisions of a project over the last days, with a daily breakdown', GuardrailMetricsAnswer, { errors: [422] })
  @PROJECT_ID_QUERY
  @ApiQuery({ name: 'days', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_METRICS_DAYS, default: 7 } })
  metrics(@CurrentPrincipal() p: Principal, @Query('projectId') projectId: unknown, @Query('days') days: unknown): Promise<GuardrailMetricsAnswer> {
    return this.metricsOf.metrics(p, projectId, days);
  }

  @Post('sessions')
  @Endpoint('Mint a short-lived session token for an agent, bound to one project', SessionToken, { status: 201, body: true })
  @ApiBody({ schema: ref(SessionRequest) })
  mintSession(@CurrentPrincipal() p: Principal, @Body() body: Json): SessionToken {
    return this.sessionsOf.mint(p, body);
  }
}
