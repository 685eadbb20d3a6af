import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Principal } from '@cds/auth';
import { ApiAnswer, ApiBodyErrors, ApiErrors } from '../openapi/api-docs.decorators';
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
  @HttpCode(200)
  @ApiOperation({ summary: 'Vet a skill before it is installed' })
  @ApiBody({ schema: ref(SkillVettingRequest) })
  @ApiAnswer(200, GuardrailDecision)
  @ApiBodyErrors()
  vetSkill(@CurrentPrincipal() p: Principal, @Body() body: Json): Promise<GuardrailDecision> {
    return this.decisions.decide('skill_vetting', p, body);
  }

  @Post('action-authorize')
  @HttpCode(200)
  @ApiOperation({ summary: 'Authorize one agent action (shell command, file write, network call) before it runs' })
  @ApiBody({ schema: ref(ActionAuthorizeRequest) })
  @ApiAnswer(200, GuardrailDecision)
  @ApiBodyErrors()
  authorize(@CurrentPrincipal() p: Principal, @Body() body: Json): Promise<GuardrailDecision> {
    return this.decisions.decide('action_authorization', p, body);
  }

  @Get('policy')
  @ApiOperation({ summary: "The project's guardrail policy" })
  @PROJECT_ID_QUERY
  @ApiAnswer(200, GuardrailPolicyAnswer)
  @ApiErrors(404, 422)
  getPolicy(@CurrentPrincipal() p: Principal, @Query('projectId') projectId: unknown): Promise<GuardrailPolicyAnswer> {
    return this.policies.get(p, projectId);
  }

  @Put('policy')
  @ApiOperation({ summary: "Set the project's guardrail policy (a new version in its history)" })
  @ApiBody({ schema: ref(GuardrailPolicyPut) })
  @ApiAnswer(200, GuardrailPolicyAnswer)
  @ApiBodyErrors()
  putPolicy(@CurrentPrincipal() p: Principal, @Body() body: Json): Promise<GuardrailPolicyAnswer> {
    return this.policies.put(p, body);
  }

  @Get('policy/history')
  @ApiOperation({ summary: "The versions of the project's guardrail policy, newest first" })
  @PROJECT_ID_QUERY
  @ApiAnswer(200, GuardrailPolicyHistory)
  @ApiErrors(404, 422)
  history(@CurrentPrincipal() p: Principal, @Query('projectId') projectId: unknown): Promise<GuardrailPolicyHistory> {
    return this.policies.history(p, projectId);
  }

  @Post('policy/rollback')
  @HttpCode(200)
  @ApiOperation({ summary: 'Restore an earlier version (appended as a new version)' })
  @ApiBody({ schema: ref(GuardrailRollbackRequest) })
  @ApiAnswer(200, GuardrailRollback)
  @ApiBodyErrors()
  @ApiErrors(404)
  rollback(@CurrentPrincipal() p: Principal, @Body() body: Json): Promise<GuardrailRollback> {
    return this.policies.rollback(p, body);
  }

  @Get('metrics')
  @ApiOperation({ summary: 'Guardrail decisions of a project over the last days, with a daily breakdown' })
  @PROJECT_ID_QUERY
  @ApiQuery({ name: 'days', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_METRICS_DAYS, default: 7 } })
  @ApiAnswer(200, GuardrailMetricsAnswer)
  @ApiErrors(422)
  metrics(@CurrentPrincipal() p: Principal, @Query('projectId') projectId: unknown, @Query('days') days: unknown): Promise<GuardrailMetricsAnswer> {
    return this.metricsOf.metrics(p, projectId, days);
  }

  @Post('sessions')
  @HttpCode(201)
  @ApiOperation({ summary: 'Mint a short-lived session token for an agent, bound to one project' })
  @ApiBody({ schema: ref(SessionRequest) })
  @ApiAnswer(201, SessionToken, 'Created')
  @ApiBodyErrors()
  mintSession(@CurrentPrincipal() p: Principal, @Body() body: Json): SessionToken {
    return this.sessionsOf.mint(p, body);
  }
}
