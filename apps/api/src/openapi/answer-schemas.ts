import { ACTION_TYPES, GUARDRAIL_ACTIONS, GUARDRAIL_CATEGORIES, MAINTAINER_REPUTATIONS, PERMISSIONS, SKILL_SOURCES } from '@cds/guardrails';
import { SCOPES } from '@cds/auth';
import { WEBHOOK_EVENT_TYPES } from '@cds/events';
import { PROJECT_ID_PATTERN } from '../guardrails/project-access';
import { SESSION_TTL } from '../guardrails/guardrail-sessions.service';
import { anyObject, arr, bool, dateTime, int, mapOf, nullable, num, obj, oneOfValues, ref, Schema, str, uuid } from './schema-builders';

/**
 * The schemas of what the service answers (and of the guardrail bodies, which the
 * guardrail engine validates itself rather than a DTO). Request DTOs are described from
 * their class-validator decorators (openapi.ts); these are the other half, written
 * against the services' answers and checked against the running service by schemathesis.
 */
const ACTIONS = ['allow', 'warn', 'flag', 'block'] as const;
const action = ref('Action');
/** A literal `true` (OpenAPI 3.0 has no `const`). */
const alwaysTrue = (description?: string): Schema => ({ type: 'boolean', enum: [true], ...(description ? { description } : {}) });
const keys = <T extends object>(o: T) => Object.keys(o) as string[];

const category = obj({
  category: str('category name, e.g. violence, sexual, hate, harassment, self-harm'),
  score: num('confidence, 0 to 1', { minimum: 0, maximum: 1 }),
  threshold: num('the policy threshold for the category'),
  triggered: bool('true when score >= threshold'),
});

const checkDecision = obj({
  safe: bool('true if the content is safe'),
  flagged: bool('true if any category triggered'),
  action,
  categories: arr(ref('CategoryResult')),
  decisionId: uuid(),
  provider: str('the provider that scored the content'),
  latency: num('milliseconds'),
  cost: num('USD'),
});

const part = obj(
  {
    contentType: oneOfValues(['text', 'image', 'video']),
    signals: mapOf(mapOf(num()), 'raw signals per provider'),
    categories: arr(ref('CategoryResult')),
    action,
    safe: bool(),
    flagged: bool(),
    contentRef: nullable(str('media:sha256:<hex> of an image, the image URL, or null for text')),
    ocrText: nullable(str('text read in the image; null for text, or when OCR is off')),
    media: nullable(ref('MediaInfo')),
  },
  {
    ocr: obj(
      {
        engine: str('tesseract (the binary) or tesseract.js (WebAssembly, where the binary is missing)'),
        languages: str('the Tesseract packs read with, e.g. deu+eng'),
      },
      { missing: arr(str(), "packs the check's language needed that this engine lacks: the text was read with English") },
      'how ocrText was read',
    ),
    frame: obj(
      {
        frameNumber: int(),
        timestamp: num('position in the video, seconds'),
        evidenceSha256: nullable(str('a full-resolution JPEG of a flagged frame in the media store, else null')),
      },
      {},
      'a sampled frame of a video decision',
    ),
    routes: mapOf(arr(str()), 'who scored each policy category of this item (after any fallback)'),
    attempts: arr(
      obj(
        { provider: str(), ok: bool(), ms: num() },
        {
          reason: str('why it failed: timeout, server_error, rate_limited, circuit_open, …'),
          cached: bool(),
          model: str(
            "the model that answered: the local text model (multilingual-e5-small-q4+heads:<sha>, or ngram:<sha> under LOCAL_TEXT_MODEL=ngram or when the cascade cleared the text), the local image model, an external provider's model",
          ),
        },
      ),
      'every provider call made for this item, failed ones included',
    ),
  },
  'one item scored in a decision',
);

const mediaInfo = obj(
  {
    sha256: str(),
    format: str(),
    width: int(),
    height: int(),
    bytes: int(),
    frameCount: int('frames in the file: 1 unless animated'),
    framesScored: int(),
  },
  {},
  'facts about an image a decision scored (the bytes are in the media store)',
);

const storedDecision = obj({
  decisionId: uuid(),
  content: str('the original content (for images, the media reference)'),
  safe: bool(),
  action,
  timestamp: dateTime('ISO 8601 UTC'),
  policyId: str('policy applied'),
  policyVersion: int(),
  flagged: bool(),
  categories: arr(ref('CategoryResult')),
  contentType: oneOfValues(['text', 'image', 'video', 'multimodal']),
  language: str(),
  metadata: anyObject(),
  requestId: nullable(str()),
  provider: str('who scored; several are comma-separated'),
  signals: mapOf(mapOf(num()), 'raw signals per provider, as they were stored'),
  parts: arr(ref('DecisionPart'), 'the items scored'),
  latency: num(),
  cost: num(),
});

const policy = obj({
  policyId: str(),
  name: str(),
  categories: mapOf(obj({ threshold: num(), action }, { provider: str() }), 'keyed by category name'),
  version: int('0 for a built-in policy'),
  builtIn: bool('the built-in policy of this id, until one of the same id is saved'),
  yamlContent: str(),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});

const impactChange = obj({
  from: action,
  to: action,
  count: int(),
  categories: arr(obj({ category: str(), count: int() }), 'the candidate categories that decided the new action'),
  sampleDecisionIds: arr(uuid()),
});
const actionCounts = obj(Object.fromEntries(ACTIONS.map((a) => [a, int()])));
const impactReport = obj({
  policyId: str(),
  candidate: obj({ name: str() }, { version: str("the candidate's own version field") }),
  window: obj({
    from: nullable(dateTime()),
    to: nullable(dateTime()),
    limit: int(),
    cut: bool('true when more decisions were in the window than limit'),
    oldest: nullable(dateTime()),
    newest: nullable(dateTime()),
  }),
  evaluated: int(),
  unchanged: int(),
  changed: int(),
  changes: arr(ref('ImpactChange')),
  actions: obj({ before: actionCounts, after: actionCounts }),
  replayMs: num(),
});

const webhook = obj({
  id: uuid(),
  url: str(),
  events: arr(ref('WebhookEventType')),
  description: nullable(str()),
  enabled: bool(),
  disabledReason: nullable(str('why the service disabled it, else null')),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
const delivery = obj({
  timestamp: dateTime(),
  status: oneOfValues(['succeeded', 'failed']),
  responseCode: nullable(int()),
  deliveryId: str(),
  attempt: int(),
  eventId: str(),
  eventType: str(),
  durationMs: num(),
  error: nullable(str()),
  nextAttemptAt: nullable(dateTime('null once delivered or given up')),
  url: str(),
  test: bool(),
});

const apiKey = obj({
  id: uuid(),
  name: str(),
  scopes: arr(oneOfValues(SCOPES)),
  tenantId: str(),
  prefix: str(),
  createdAt: dateTime(),
  revokedAt: nullable(dateTime()),
});

const batchItemResult: Schema = {
  description: "one item's decision, or why it could not be checked (the others are unaffected)",
  oneOf: [obj({ id: str(), safe: bool(), action, decisionId: uuid() }), obj({ id: str(), error: ref('ItemError') })],
};

const videoProgress = obj({ framesProcessed: int(), framesTotal: int(), percentComplete: int(undefined, { minimum: 0, maximum: 100 }) });
const frameResult = obj(
  { frameNumber: int(), timestamp: num('position in the video, seconds'), safe: bool(), flagged: bool(), action, categories: arr(ref('CategoryResult')) },
  {
    ocrText: str(),
    evidence: obj({ url: str('signed URL of the frame, no API key needed'), expiresAt: dateTime() }, {}, 'on flagged frames'),
  },
);
const segment = obj({
  start: num('seconds: the first flagged frame of the run'),
  end: num('seconds: the last flagged frame of the run'),
  categories: arr(str()),
  action,
  frames: int(),
});

// Named components, as both the policy and an inline (partial) policy carry them.
const systemZonesSchema = obj(
  {},
  {
    add: arr(str('a path prefix protected like system configuration')),
    exempt: arr(str('a path prefix where the built-in system zones do not apply')),
  },
  'optional: widens or narrows the built-in system zones (libs/guardrails/GUARDRAILS.md, "System zones")',
);
const stringOrList = (description: string): Schema => ({ description, oneOf: [str(), arr(str())] });
const sessionRuleSchema = obj(
  {
    name: str('unique in the policy, at most 64 characters'),
    steps: arr(
      obj(
        {},
        {
          actionType: stringOrList('the action is one of these action types'),
          category: stringOrList('its decision had one of these categories'),
          fact: stringOrList('it did one of: secret_read, network, network_egress, download, run, startup_write, exec'),
          command: str('a blockShellPatterns glob matched against the command'),
          targetPath: str('the same glob syntax, matched against the targetPath'),
        },
        'at least one condition; all the conditions it sets must hold',
      ),
    ),
    action: oneOfValues(['flag', 'block']),
  },
  { within: int('how many earlier actions of the session the steps may reach back: 1 to 200, default 50') },
  "a sequence of a session's actions (2 to 8 steps, the last one the action being authorized)",
);
const systemZones = ref('GuardrailSystemZones');
const sessionRules = arr(ref('GuardrailSessionRule'), 'optional: at most 32 rules');
const guardrailPolicy = obj(
  { sensitivePathPrefixes: arr(str()), networkAllowlist: arr(str()), blockShellPatterns: arr(str()), requireApprovalScore: num() },
  { systemZones, sessionRules },
);
const partialGuardrailPolicy: Schema = {
  type: 'object',
  additionalProperties: false,
  description: 'any subset of the project policy fields; the missing ones come from the project policy, then the defaults',
  properties: {
    sensitivePathPrefixes: arr(str()),
    networkAllowlist: arr(str()),
    blockShellPatterns: arr(str()),
    requireApprovalScore: num(),
    systemZones,
    sessionRules,
  },
};
const historyEntry = obj({
  version: str('opaque version identifier'),
  updatedAt: dateTime(),
  updatedBy: str('key:<keyId> or session:<tokenId>'),
  policy: ref('GuardrailPolicy'),
  restoredVersion: nullable(str('the version this one restored (a rollback), else null')),
});
const permissions = arr(ref('GuardrailPermission'));
/** A project id as the guardrail endpoints take it. */
export const projectId = str('the project: 1-128 letters, digits, ".", "_", ":" or "-"', { pattern: PROJECT_ID_PATTERN.source });

export const ANSWER_SCHEMAS: Record<string, Schema> = {
  Action: oneOfValues(ACTIONS, 'allow, warn, flag or block, from the mildest to the most severe'),
  ErrorBody: obj({ error: str('what went wrong'), code: str('machine-readable code, e.g. INVALID_API_KEY'), details: str('what to change') }),
  RateLimited: obj({ error: str(), retryAfter: int('seconds') }, { code: str('RATE_LIMITED'), details: str() }),
  CategoryResult: category,
  CheckDecision: checkDecision,
  ReplayedDecision: {
    allOf: [
      ref('CheckDecision'),
      obj(
        { policyId: str(), policyVersion: int(), replayed: alwaysTrue(), original: obj({ policyId: str(), policyVersion: int(), action, safe: bool() }) },
        { results: arr(ref('MultimodalResult'), 'for a multimodal decision: each item again, in request order') },
      ),
    ],
  },
  DecisionPart: part,
  MediaInfo: mediaInfo,
  StoredDecision: storedDecision,
  DecisionList: obj({ decisions: arr(ref('StoredDecision')) }),
  CurlCommand: obj({ curl: str('a command reproducing the check; the key is read from $API_KEY') }),
  DryRunResult: obj({
    dryRun: alwaysTrue(),
    policyId: nullable(str('null when an unsaved policy was evaluated')),
    categories: arr(ref('CategoryResult')),
    flagged: bool(),
    safe: bool(),
    action,
  }),
  MultimodalResult: obj(
    { contentType: oneOfValues(['text', 'image', 'video']), safe: bool(), flagged: bool(), action, categories: arr(ref('CategoryResult')) },
    { contentRef: str('for images, the URL or media reference; absent for text') },
  ),
  MultimodalDecision: obj({
    decisionId: uuid(),
    safe: bool(),
    flagged: bool(),
    action,
    results: arr(ref('MultimodalResult')),
    totalLatency: num('ms'),
    totalCost: num('USD'),
  }),
  ItemError: obj({ code: str(), message: str(), details: str() }, {}, 'why an item, a batch or a video job failed'),
  BatchItemResult: batchItemResult,
  BatchResult: obj({ items: arr(ref('BatchItemResult')) }),
  AsyncBatchAccepted: obj(
    { batchId: uuid(), status: oneOfValues(['processing']), totalItems: int() },
    { webhookSecret: str('signing secret of the deliveries, when no registered webhook has this URL (shown once)'), signingWebhookId: uuid() },
  ),
  AsyncBatch: obj({
    batchId: uuid(),
    status: oneOfValues(['processing', 'completed', 'failed']),
    policyId: str(),
    totalItems: int(),
    webhookUrl: str(),
    createdAt: dateTime(),
    completedAt: nullable(dateTime()),
    succeeded: nullable(int()),
    failed: nullable(int()),
    items: nullable(arr(ref('BatchItemResult'), 'per-item results once completed')),
    error: nullable(ref('ItemError')),
  }),
  VideoAccepted: obj(
    { decisionId: uuid(), status: oneOfValues(['processing']), estimatedTime: num('seconds'), estimatedFrames: num(), estimatedCost: num('USD') },
    { webhookSecret: str(), signingWebhookId: uuid() },
  ),
  VideoProgress: videoProgress,
  VideoStatus: obj(
    { decisionId: uuid(), status: oneOfValues(['processing', 'completed', 'failed']), progress: ref('VideoProgress'), estimatedCompletion: dateTime() },
    { error: ref('ItemError') },
  ),
  VideoFrameResult: frameResult,
  VideoSegment: segment,
  VideoCompleted: obj({
    decisionId: uuid(),
    status: oneOfValues(['completed']),
    safe: bool(),
    flagged: bool(),
    action,
    categories: arr(ref('CategoryResult')),
    results: arr(ref('VideoFrameResult')),
    segments: arr(ref('VideoSegment'), 'runs of consecutive flagged frames'),
    stoppedOnBlock: bool(),
    framesProcessed: int(),
    totalLatency: num('ms'),
    totalCost: num('USD'),
    policyId: str(),
    policyVersion: int(),
    provider: str(),
  }),
  VideoProcessing: obj({ decisionId: uuid(), status: oneOfValues(['processing']), progress: ref('VideoProgress'), estimatedCompletion: dateTime() }),
  VideoFailed: obj({ decisionId: uuid(), status: oneOfValues(['failed']), error: ref('ItemError') }),
  VideoResult: {
    description: 'completed (200): the result; processing (202): the progress; failed (200): the reason',
    oneOf: [ref('VideoCompleted'), ref('VideoProcessing'), ref('VideoFailed')],
  },
  Policy: policy,
  PolicyList: obj({ policies: arr(ref('Policy')) }),
  ImpactChange: impactChange,
  ImpactReport: impactReport,
  Webhook: webhook,
  WebhookEventType: oneOfValues(WEBHOOK_EVENT_TYPES),
  WebhookCreated: { allOf: [ref('Webhook'), obj({ secret: str('signing secret, shown once') })] },
  WebhookList: obj({ webhooks: arr(ref('Webhook')) }),
  WebhookDeleted: obj({ id: uuid(), deleted: alwaysTrue() }),
  WebhookTestResult: obj({ success: bool(), deliveryId: str(), eventId: str(), responseCode: nullable(int()), durationMs: num(), error: nullable(str()) }),
  WebhookDelivery: delivery,
  WebhookDeliveryList: obj({ deliveries: arr(ref('WebhookDelivery')) }),
  ApiKey: apiKey,
  ApiKeyCreated: { allOf: [ref('ApiKey'), obj({ key: str('the key itself, shown once') })] },
  ApiKeyList: obj({ keys: arr(ref('ApiKey')) }),
  GuardrailDecision: obj({
    decisionId: uuid(),
    action: oneOfValues(GUARDRAIL_ACTIONS),
    riskScore: num('0 to 100; compared with requireApprovalScore'),
    reasons: arr(str()),
    categories: arr(oneOfValues(keys(GUARDRAIL_CATEGORIES))),
    requiresApproval: bool(),
  }),
  GuardrailPermission: oneOfValues(keys(PERMISSIONS)),
  SkillVettingRequest: obj(
    { skillId: str(undefined, { minLength: 1 }) },
    {
      name: str(),
      source: oneOfValues(keys(SKILL_SOURCES)),
      prompt: str('skill purpose text'),
      requestedPermissions: permissions,
      hasChecksum: bool(),
      signedPublisher: bool(),
      maintainerReputation: oneOfValues(keys(MAINTAINER_REPUTATIONS)),
      projectId,
      policy: ref('PartialGuardrailPolicy'),
    },
  ),
  ActionAuthorizeRequest: obj(
    { actionType: oneOfValues(keys(ACTION_TYPES)) },
    {
      command: str(),
      targetPath: str('a file path, or a URL for network action types'),
      requestedPermissions: permissions,
      projectId,
      policy: ref('PartialGuardrailPolicy'),
    },
  ),
  GuardrailPolicy: guardrailPolicy,
  PartialGuardrailPolicy: partialGuardrailPolicy,
  GuardrailSystemZones: systemZonesSchema,
  GuardrailSessionRule: sessionRuleSchema,
  GuardrailPolicyAnswer: obj({ projectId: str(), policy: ref('GuardrailPolicy') }),
  GuardrailPolicyPut: obj({ policy: ref('GuardrailPolicy') }, { projectId }, 'projectId is required with an API key; a session token names its own'),
  GuardrailPolicyHistory: obj({ projectId: str(), history: arr(ref('GuardrailPolicyHistoryEntry')) }),
  GuardrailPolicyHistoryEntry: historyEntry,
  GuardrailRollbackRequest: obj({ version: str('a history version identifier') }, { projectId }),
  GuardrailRollback: obj({ projectId: str(), version: str(), restoredVersion: str(), updatedAt: dateTime(), updatedBy: str(), policy: ref('GuardrailPolicy') }),
  GuardrailMetrics: obj({
    projectId: str(),
    days: int(),
    total: int(),
    blocked: int(),
    approvalRequired: int(),
    blockRate: num(),
    approvalRate: num(),
    skillVetting: int(),
    runtimeAuthorization: int(),
    daily: arr(obj({ date: str('YYYY-MM-DD', { format: 'date' }), total: int(), blocked: int(), approvalRequired: int() })),
  }),
  SessionRequest: obj(
    { projectId },
    {
      ttlSeconds: int(`lifetime of the token, default ${SESSION_TTL.default}`, { minimum: SESSION_TTL.min, maximum: SESSION_TTL.max }),
      policyWrite: bool('may the token change the project policy'),
    },
  ),
  SessionToken: obj({ token: str(), tokenId: uuid(), projectId: str(), policyWrite: bool(), expiresAt: dateTime() }),
  ProviderList: obj({
    providers: arr(
      obj({
        name: str(),
        configured: bool('false: this build knows it, but its key or endpoint is not set'),
        modalities: arr(oneOfValues(['text', 'image'])),
        circuit: oneOfValues(['closed', 'open', 'half_open']),
      }),
    ),
    defaults: obj({ text: str(), image: str() }, {}, 'who scores a modality when a policy names no provider (DEFAULT_PROVIDER)'),
  }),
  Health: obj({ status: oneOfValues(['ok']) }),
  Readiness: obj(
    {
      status: oneOfValues(['ready', 'not_ready']),
      eventLog: bool(),
      readModels: bool(),
      localTextModel: obj(
        { model: oneOfValues(['embedding', 'ngram']), state: oneOfValues(['idle', 'loading', 'ready', 'failed']) },
        {},
        "the local provider's text model (LOCAL_TEXT_MODEL): the api is ready once it is",
      ),
    },
    {
      providers: mapOf(
        oneOfValues(['closed', 'open', 'half_open']),
        'circuit state of each configured provider (an open one does not make the service unready: fallbacks score)',
      ),
    },
  ),
};
