import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ACTION_SCHEMA } from './shared.answers';
import { BATCH_ITEM_RESULT } from '../batches/batches.answers';
import { VIDEO_RESULT } from '../video/video.answers';
import { WEBHOOK_EVENT_TYPE_SCHEMA } from '../webhooks/webhooks.answers';
import { GUARDRAIL_PERMISSION_SCHEMA } from '../guardrails/guardrails.answers';
// The answer classes (@Named) of the features whose schemas no value here names.
import '../checks/checks.answers';
import '../decisions/decisions.answers';
import '../policies/policies.answers';
import '../keys/keys.answers';
import '../guardrails/guardrails.requests';
import '../providers/providers.answers';
import '../health/health.answers';
import type { Schema } from './schema-builders';

/** The document's named schemas that are not a class: value lists and unions of answers. */
export const NAMED_VALUES: Record<string, Schema> = {
  Action: ACTION_SCHEMA,
  BatchItemResult: BATCH_ITEM_RESULT,
  VideoResult: VIDEO_RESULT,
  WebhookEventType: WEBHOOK_EVENT_TYPE_SCHEMA,
  GuardrailPermission: GUARDRAIL_PERMISSION_SCHEMA,
} satisfies Record<string, Schema | SchemaObject>;
