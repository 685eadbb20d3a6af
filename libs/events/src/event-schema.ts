import { EventEnvelope } from './envelope';
import { liftStoredForm } from './event-codec';
import { EventSchemaError } from './event-schema-error';
import { CURRENT_VERSION, DecisionCreatedV1, DecisionCreatedV2, DomainEvent, DomainEventType, WEBHOOK_EVENT_TYPES } from './domain-events';

export { EventSchemaError };

type Check = (v: unknown) => boolean;
const str: Check = (v) => typeof v === 'string';
const strOrNull: Check = (v) => v === null || typeof v === 'string';
const num: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const bool: Check = (v) => typeof v === 'boolean';
const obj: Check = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr: Check = (v) => Array.isArray(v);
const strArr: Check = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The verdict of a guardrail decision: the body of its alerts, the start of `guardrail.decided`. */
const GUARDRAIL_ALERT: Record<string, Check> = {
  decisionId: str,
  projectId: strOrNull,
  kind: str,
  action: str,
  riskScore: num,
  reasons: strArr,
  categories: strArr,
  requiresApproval: bool,
};
const GUARDRAIL_POLICY_VERSION: Record<string, Check> = {
  projectId: str,
  version: str,
  policy: obj,
  updatedBy: str,
  restoredVersion: strOrNull,
};

const numOrNull: Check = (v) => v === null || num(v);
const webhookEvents: Check = (v) => strArr(v) && (v as string[]).every((t) => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(t));
const target: Check = (v) =>
  obj(v) && (((v as any).kind === 'webhook' && str((v as any).webhookId)) || ((v as any).kind === 'batch' && str((v as any).batchId) && str((v as any).url)));
const batchItems: Check = (v) => arr(v) && (v as any[]).every((i) => obj(i) && str(i.id) && str(i.content));
const batchError: Check = (v) => obj(v) && str((v as any).code) && str((v as any).message) && str((v as any).details);
const signalsByProvider: Check = (v) => obj(v) && Object.values(v as object).every(obj);
const decisionParts: Check = (v) =>
  arr(v) &&
  (v as any[]).length > 0 &&
  (v as any[]).every(
    (p) =>
      obj(p) &&
      ['text', 'image', 'video'].includes(p.contentType) &&
      strOrNull(p.contentRef) &&
      (p.frame === undefined || (obj(p.frame) && num(p.frame.frameNumber) && num(p.frame.timestamp) && strOrNull(p.frame.evidenceSha256))) &&
      signalsByProvider(p.signals) &&
      strOrNull(p.ocrText) &&
      (p.media === null || obj(p.media)) &&
      arr(p.categories) &&
      str(p.action) &&
      bool(p.safe) &&
      bool(p.flagged),
  );
const videoSource: Check = (v) =>
  obj(v) &&
  (((v as any).kind === 'url' && str((v as any).url)) ||
    ((v as any).kind === 'upload' && str((v as any).sha256) && strOrNull((v as any).filename) && num((v as any).bytes)));
const videoExtraction: Check = (v) =>
  obj(v) &&
  ((v as any).mode === 'interval' || (v as any).mode === 'scenes') &&
  num((v as any).frameInterval) &&
  num((v as any).maxFrames) &&
  bool((v as any).stopOnBlock);
const videoFrames: Check = (v) =>
  arr(v) && (v as any[]).every((f) => obj(f) && num(f.index) && num(f.timestamp) && bool(f.scene) && signalsByProvider(f.signals) && strOrNull(f.ocrText));
const DELIVERY_REF: Record<string, Check> = { deliveryId: str, webhookId: strOrNull, eventId: str, eventType: str };

const SCHEMAS: Record<DomainEventType, Record<string, Check>> = {
  'decision.created': {
    decisionId: str,
    requestId: strOrNull,
    content: str,
    contentType: str,
    language: str,
    metadata: obj,
    policyId: str,
    policyVersion: num,
    provider: str,
    signals: signalsByProvider,
    parts: decisionParts,
    categories: arr,
    action: str,
    safe: bool,
    flagged: bool,
    latency: num,
    cost: num,
  },
  'policy.saved': { policyId: str, name: str, version: num, yamlContent: str, categories: obj, savedBy: str },
  'key.created': { keyId: str, name: str, scopes: strArr, hash: str, prefix: str, createdBy: str },
  'key.revoked': { keyId: str, revokedBy: str },
  'guardrail.decided': {
    ...GUARDRAIL_ALERT,
    request: obj,
    policy: obj,
    policyOrigin: obj,
    decidedBy: str,
    latency: num,
    skill: (v) => v === undefined || (obj(v) && str((v as any).skillId) && str((v as any).contentHash)),
    session: (v) =>
      v === undefined ||
      (obj(v) && str((v as any).sessionId) && arr((v as any).facts) && (v as any).facts.every((f: any) => obj(f) && str(f.kind) && str(f.value))),
  },
  'agent.guardrail.blocked': GUARDRAIL_ALERT,
  'agent.guardrail.approval_required': GUARDRAIL_ALERT,
  'guardrail.policy.updated': GUARDRAIL_POLICY_VERSION,
  'guardrail.policy.rolled_back': GUARDRAIL_POLICY_VERSION,
  'webhook.created': {
    webhookId: str,
    url: str,
    events: webhookEvents,
    description: strOrNull,
    enabled: bool,
    secretCiphertext: str,
    createdBy: str,
  },
  'webhook.updated': { webhookId: str, changes: obj, updatedBy: str },
  'webhook.deleted': { webhookId: str, deletedBy: str },
  'webhook.auto_disabled': { webhookId: str, reason: str, failingSince: str, lastError: strOrNull },
  'webhook.delivery.scheduled': { ...DELIVERY_REF, target, payload: obj, dueAt: str },
  'webhook.delivery.attempted': {
    ...DELIVERY_REF,
    attempt: num,
    status: (v) => v === 'succeeded' || v === 'failed',
    url: str,
    responseCode: numOrNull,
    durationMs: num,
    error: strOrNull,
    nextAttemptAt: strOrNull,
    test: bool,
  },
  'webhook.delivery.cancelled': { ...DELIVERY_REF, reason: str },
  'batch.accepted': {
    batchId: str,
    policyId: str,
    items: batchItems,
    webhookUrl: str,
    signingWebhookId: strOrNull,
    secretCiphertext: strOrNull,
    acceptedBy: str,
  },
  'batch.completed': { batchId: str, policyId: str, results: arr, succeeded: num, failed: num },
  'batch.failed': { batchId: str, policyId: str, error: batchError },
  'video.accepted': {
    decisionId: str,
    policyId: str,
    source: videoSource,
    webhookUrl: strOrNull,
    signingWebhookId: strOrNull,
    secretCiphertext: strOrNull,
    extraction: videoExtraction,
    maxDurationSeconds: num,
    language: str,
    metadata: obj,
    estimatedFrames: num,
    acceptedBy: str,
  },
  'video.progress': { decisionId: str, mediaSha256: str, probe: obj, framesTotal: num, framesProcessed: num, frames: videoFrames },
  'video.completed': { decisionId: str, policyId: str, action: str, safe: bool, flagged: bool, framesProcessed: num, stoppedOnBlock: bool },
  'video.failed': { decisionId: str, policyId: str, error: batchError },
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
