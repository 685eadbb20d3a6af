import { EventEnvelope } from './envelope';
import { liftStoredForm } from './event-codec';
import { EventSchemaError } from './event-schema-error';
import { CURRENT_VERSION, DecisionCreatedV1, DomainEvent, DomainEventType } from './domain-events';
import type { DecisionCreatedV2 } from './event-bodies';
import * as bodies from './event-bodies';
import * as fields from './event-fields';

export { EventSchemaError };

const { str, num } = fields;
const obj = (v: unknown): boolean => fields.isObject(v);

/** What each event type's body is checked with: its declaration (event-bodies.ts). */
const SCHEMAS: Record<DomainEventType, fields.Fields> = {
  'decision.created': bodies.DECISION_CREATED_V2,
  'policy.saved': bodies.POLICY_SAVED_V1,
  'key.created': bodies.KEY_CREATED_V1,
  'key.revoked': bodies.KEY_REVOKED_V1,
  'guardrail.decided': bodies.GUARDRAIL_DECIDED_V1,
  'agent.guardrail.blocked': bodies.GUARDRAIL_ALERT_V1,
  'agent.guardrail.approval_required': bodies.GUARDRAIL_ALERT_V1,
  'guardrail.policy.updated': bodies.GUARDRAIL_POLICY_VERSION_V1,
  'guardrail.policy.rolled_back': bodies.GUARDRAIL_POLICY_VERSION_V1,
  'webhook.created': bodies.WEBHOOK_CREATED_V1,
  'webhook.updated': bodies.WEBHOOK_UPDATED_V1,
  'webhook.deleted': bodies.WEBHOOK_DELETED_V1,
  'webhook.auto_disabled': bodies.WEBHOOK_AUTO_DISABLED_V1,
  'webhook.delivery.scheduled': bodies.DELIVERY_SCHEDULED_V1,
  'webhook.delivery.attempted': bodies.DELIVERY_ATTEMPTED_V1,
  'webhook.delivery.cancelled': bodies.DELIVERY_CANCELLED_V1,
  'batch.accepted': bodies.BATCH_ACCEPTED_V1,
  'batch.completed': bodies.BATCH_COMPLETED_V1,
  'batch.failed': bodies.BATCH_FAILED_V1,
  'video.accepted': bodies.VIDEO_ACCEPTED_V1,
  'video.progress': bodies.VIDEO_PROGRESS_V1,
  'video.completed': bodies.VIDEO_COMPLETED_V1,
  'video.failed': bodies.VIDEO_FAILED_V1,
};

/** Old versions are lifted to the current one when read. Each entry maps version v
 * to v+1. */
const UPCASTERS: Partial<Record<DomainEventType, Record<number, (data: any) => any>>> = {
  // v1 (text only): its one provider's signals become a per-provider map and one text part.
  'decision.created': { 1: decisionCreatedV1ToV2 },
};

export function decisionCreatedV1ToV2(d: DecisionCreatedV1): DecisionCreatedV2 {
  const signals = { [d.provider]: d.signals ?? {} };
  return {
    ...d,
    signals,
    parts: [
      {
        contentType: 'text',
        contentRef: null,
        signals,
        ocrText: null,
        media: null,
        categories: d.categories,
        action: d.action,
        safe: d.safe,
        flagged: d.flagged,
      },
    ],
  };
}

/** W3C Trace Context `traceparent`: version, trace id, parent id, flags. */
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

export function validateEvent(e: unknown): DomainEvent {
  if (!obj(e)) throw new EventSchemaError('event is not an object');
  const env = e as EventEnvelope;
  for (const [k, check] of Object.entries({ id: str, type: str, version: num, occurredAt: str, tenantId: str, key: str, data: obj })) {
    if (!check((env as any)[k])) throw new EventSchemaError(`envelope field ${k} is missing or has the wrong type`);
  }
  if (env.requestId !== undefined && !str(env.requestId)) throw new EventSchemaError('envelope field requestId has the wrong type');
  if (env.traceparent !== undefined && !(str(env.traceparent) && TRACEPARENT.test(env.traceparent)))
    throw new EventSchemaError('envelope field traceparent is not a W3C traceparent');
  const schema = SCHEMAS[env.type as DomainEventType];
  if (!schema) throw new EventSchemaError(`unknown event type ${env.type}`);
  for (const [k, check] of Object.entries(schema)) {
    if (!check((env.data as any)[k])) throw new EventSchemaError(`${env.type}: field data.${k} is missing or has the wrong type`);
  }
  return env as DomainEvent;
}

/** Bring an event read from the log to the current version of its type (from the form
 * it is stored in, event-codec.ts), then validate it. */
export function upcast(stored: EventEnvelope): DomainEvent {
  const e = liftStoredForm(stored);
  const type = e.type as DomainEventType;
  const target = CURRENT_VERSION[type];
  if (target === undefined) throw new EventSchemaError(`unknown event type ${e.type}`);
  let { version, data } = e;
  while (version < target) {
    const step = UPCASTERS[type]?.[version];
    if (!step) throw new EventSchemaError(`no upcaster for ${type} v${version}`);
    data = step(data);
    version += 1;
  }
  if (version > target) throw new EventSchemaError(`${type} v${version} is newer than this build understands (v${target})`);
  return validateEvent({ ...e, version, data });
}

/**
 * An envelope lifted to its current schema, or, when it cannot be read, the message a
 * consumer logs as it parks it (skips it, naming its position `at`) rather than blocking
 * its stream forever. Errors other than the schema's are thrown.
 */
export function liftOrPark(e: EventEnvelope, at: string): { event: DomainEvent } | { parked: string } {
  try {
    return { event: upcast(e) };
  } catch (err) {
    if (!(err instanceof EventSchemaError)) throw err;
    return { parked: `parked ${at} (${e?.type}): ${err.message}` };
  }
}

/** As `liftOrPark`, from the JSON text the log holds: text that is not a JSON object is
 * parked too. */
export function liftEncodedOrPark(json: string, at: string): { event: DomainEvent } | { parked: string } {
  let envelope: EventEnvelope;
  try {
    envelope = JSON.parse(json);
    if (typeof envelope !== 'object' || envelope === null) throw new Error('not an object');
  } catch (err) {
    return { parked: `parked ${at}: not a JSON envelope (${(err as Error).message})` };
  }
  return liftOrPark(envelope, at);
}
