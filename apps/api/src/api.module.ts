import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { CheckEngineModule } from '@cds/checks';
import { ChecksController } from './checks/checks.controller';
import { DryRun } from './checks/dry-run.service';
import { DecisionQueries } from './decisions/decision-queries.service';
import { DecisionsController } from './decisions/decisions.controller';
import { GuardrailDecisions } from './guardrails/guardrail-decisions.service';
import { SkillPins } from './guardrails/skill-pins.service';
import { SessionHistory } from './guardrails/session-history.service';
import { GuardrailMetrics } from './guardrails/guardrail-metrics.service';
import { GuardrailPolicies } from './guardrails/guardrail-policies.service';
import { GuardrailSessions } from './guardrails/guardrail-sessions.service';
import { GuardrailsController } from './guardrails/guardrails.controller';
import { HealthController } from './health/health.controller';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { AuthGuard } from './http/auth.guard';
import { ObjectBodyPipe, validationPipe } from './http/validation';
import { KeyResolver } from './keys/key-resolver.service';
import { KeysController } from './keys/keys.controller';
import { KeysService } from './keys/keys.service';
import { PoliciesController } from './policies/policies.controller';
import { PoliciesService } from './policies/policies.service';
import { PolicyImpact } from './policies/policy-impact.service';
import { WebhookSecrets } from './webhooks/webhook-secrets.service';
import { BatchesController } from './batches/batches.controller';
import { BatchesService } from './batches/batches.service';
import { WebhooksController } from './webhooks/webhooks.controller';
import { WebhooksService } from './webhooks/webhooks.service';
import { MediaController } from './media/media.controller';
import { MetricsController } from './metrics/metrics.controller';
import { VideoController } from './video/video.controller';
import { VideoService } from './video/video.service';
import { ConsoleModule } from './console/console.module';
import { ProvidersController } from './providers/providers.controller';

/** The HTTP api: /v1 controllers, auth, rate limits, idempotency, over the check engine.
 * Needs the config, event-log and read-models modules from its host. */
@Module({
  imports: [CheckEngineModule, ConsoleModule],
  controllers: [
    ChecksController,
    PoliciesController,
    DecisionsController,
    KeysController,
    GuardrailsController,
    HealthController,
    WebhooksController,
    BatchesController,
    MediaController,
    MetricsController,
    VideoController,
    ProvidersController,
  ],
  providers: [
    DryRun,
    DecisionQueries,
    PoliciesService,
    PolicyImpact,
    KeysService,
    KeyResolver,
    GuardrailDecisions,
    SkillPins,
    SessionHistory,
    GuardrailPolicies,
    GuardrailMetrics,
    GuardrailSessions,
    WebhookSecrets,
    WebhooksService,
    BatchesService,
    VideoService,
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_PIPE, useClass: ObjectBodyPipe },
    { provide: APP_PIPE, useFactory: validationPipe },
  ],
})
export class ApiModule {}
