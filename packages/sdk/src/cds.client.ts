import { randomUUID } from 'node:crypto';
import { iterateDecisionPages } from './decisions.iterator';
import { Call, Clock, HttpTransport, RequestOptions, systemClock } from './http.transport';
import type {
  AsyncBatchAccepted,
  AsyncBatchRequest,
  Batch,
  BatchCheckRequest,
  BatchCheckResult,
  CheckDecision,
  CheckRequest,
  DryRunRequest,
  DryRunResult,
  MultimodalDecision,
  MultimodalRequest,
} from './types/checks.types';
import type { DecisionCurl, DecisionFilter, DecisionList, Media, ReplayedDecision, StoredDecision } from './types/decisions.types';
import type {
  ActionAuthorizeRequest,
  GuardrailDecision,
  GuardrailMetrics,
  GuardrailPolicy,
  GuardrailPolicyHistory,
  GuardrailRollback,
  GuardrailSession,
  GuardrailSessionRequest,
  ProjectGuardrailPolicy,
  SkillVettingRequest,
} from './types/guardrails.types';
import type { Policy, PolicyImpact, PolicyImpactRequest } from './types/policies.types';
import type { VideoAccepted, VideoCheckRequest, VideoResult, VideoStatus, VideoUploadFields } from './types/video.types';
import type {
  ApiKey,
  CreatedApiKey,
  CreatedWebhook,
  CreateKeyRequest,
  CreateWebhookRequest,
  UpdateWebhookRequest,
  Webhook,
  WebhookDelivery,
  WebhookTestResult,
} from './types/webhooks.types';

export interface CdsClientOptions {
  /** The service, e.g. `http://localhost:3000` (paths start with `/v1`). */
  baseUrl: string;
  /** An API key, or a guardrail session token (`cds_st_…`). */
  apiKey: string;
  /** Retries after the first attempt (429, 5xx, network failures), default 3. */
  retries?: number;
  /** Default the global fetch of Node 20. */
  fetch?: typeof fetch;
  /** Per attempt, default 60 000 ms. */
  timeoutMs?: number;
  /** Backoff: the first retry waits up to this long (full jitter), default 250 ms, doubling. */
  baseDelayMs?: number;
  /** Backoff cap, default 20 000 ms. */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited out: the 429 goes to the caller. Default 60 000 ms. */
  maxRetryAfterMs?: number;
  clock?: Clock;
  /** Random source of the jitter, [0, 1). */
  random?: () => number;
  userAgent?: string;
}

/** Options of the checks: the idempotency key sent as `Idempotency-Key`. */
export interface CheckOptions extends RequestOptions {
  /** Default: a random UUID per call (kept across that call's retries), unless the body has `requestId`. */
  idempotencyKey?: string;
}

export const SDK_VERSION = '0.1.0';

const id = (value: string) => encodeURIComponent(value);

/**
 * A typed client of every `/v1` endpoint. Failures throw CdsError. Reads, dry runs and
 * checks (which carry an idempotency key) are retried on 429, 5xx and network failures;
 * writes the service cannot deduplicate only when it certainly did nothing (see
 * retry.policy.ts).
 */
export class CdsClient {
  private readonly http: HttpTransport;

  constructor(options: CdsClientOptions) {
    if (!options?.baseUrl) throw new TypeError('CdsClient: baseUrl is required');
    if (!options.apiKey) throw new TypeError('CdsClient: apiKey is required');
    const retries = options.retries ?? 3;
    if (!Number.isInteger(retries) || retries < 0) throw new TypeError('CdsClient: retries must be a non-negative integer');
    this.http = new HttpTransport({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      apiKey: options.apiKey,
      retries,
      fetch: options.fetch ?? ((...args) => fetch(...args)),
      timeoutMs: options.timeoutMs ?? 60_000,
      baseDelayMs: options.baseDelayMs ?? 250,
      maxDelayMs: options.maxDelayMs ?? 20_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
      clock: options.clock ?? systemClock,
      random: options.random ?? Math.random,
      userAgent: options.userAgent ?? `cds-sdk/${SDK_VERSION} node/${process.versions.node}`,
    });
  }

  private call<T>(call: Call, opts?: RequestOptions): Promise<T> {
    return this.http.request<T>(call, opts);
  }

  /** A read: retried as every idempotent call is. */
  private get<T>(path: string, opts?: RequestOptions, more: Pick<Call, 'query' | 'accept'> = {}): Promise<T> {
    return this.call({ method: 'GET', path, ...more, retry: 'idempotent' }, opts);
  }

  /** One key per call: every retry of it carries the same one, so the service answers the first decision. */
  private idempotency(requestId: string | undefined, opts: CheckOptions | undefined): Record<string, string> {
    if (opts?.idempotencyKey !== undefined) return { 'idempotency-key': opts.idempotencyKey };
    return requestId !== undefined ? {} : { 'idempotency-key': randomUUID() };
  }

  // ---- checks -------------------------------------------------------------------------

  /** POST /v1/check */
  check(request: CheckRequest, opts?: CheckOptions): Promise<CheckDecision> {
    const headers = this.idempotency(request.requestId, opts);
    return this.call({ method: 'POST', path: '/v1/check', body: request, headers, retry: 'idempotent' }, opts);
  }

  /** POST /v1/check/multimodal */
  checkMultimodal(request: MultimodalRequest, opts?: CheckOptions): Promise<MultimodalDecision> {
    const headers = this.idempotency(request.requestId, opts);
    return this.call({ method: 'POST', path: '/v1/check/multimodal', body: request, headers, retry: 'idempotent' }, opts);
  }

  /** POST /v1/check/dry-run: no provider is called, nothing is recorded. */
  dryRun(request: DryRunRequest, opts?: RequestOptions): Promise<DryRunResult> {
    return this.call({ method: 'POST', path: '/v1/check/dry-run', body: request, retry: 'idempotent' }, opts);
  }

  /**
   * POST /v1/batch/check. Sends an Idempotency-Key like the other checks, but the service
   * does not deduplicate batches yet, so this is retried only when it certainly did nothing.
   */
  batchCheck(request: BatchCheckRequest, opts?: CheckOptions): Promise<BatchCheckResult> {
    const headers = this.idempotency(undefined, opts);
    return this.call({ method: 'POST', path: '/v1/batch/check', body: request, headers, retry: 'unprocessed' }, opts);
  }

  /** POST /v1/batch/check/async (202): the outcome goes to `webhookUrl`. */
  batchCheckAsync(request: AsyncBatchRequest, opts?: RequestOptions): Promise<AsyncBatchAccepted> {
    return this.call({ method: 'POST', path: '/v1/batch/check/async', body: request, retry: 'unprocessed' }, opts);
  }

  /** GET /v1/batch/{batchId} */
  getBatch(batchId: string, opts?: RequestOptions): Promise<Batch> {
    return this.get(`/v1/batch/${id(batchId)}`, opts);
  }

  // ---- video --------------------------------------------------------------------------

  /** POST /v1/video/check (202): a video by URL, checked by the worker. */
  videoCheck(request: VideoCheckRequest, opts?: RequestOptions): Promise<VideoAccepted> {
    return this.call({ method: 'POST', path: '/v1/video/check', body: request, retry: 'unprocessed' }, opts);
  }

  /** POST /v1/video/upload (202), multipart: the file (at most 100 MB) and the options as fields. */
  videoUpload(file: Buffer | Uint8Array | Blob, fields: VideoUploadFields, opts?: RequestOptions): Promise<VideoAccepted> {
    const { filename, fileContentType, metadata, extractionStrategy, ...text } = fields;
    const blob = file instanceof Blob ? file : new Blob([file], { type: fileContentType ?? 'application/octet-stream' });
    const form = () => {
      const f = new FormData();
      // Fields first, the file last: the service reads the parts in order.
      for (const [name, value] of Object.entries(text)) if (value !== undefined) f.set(name, String(value));
      if (metadata !== undefined) f.set('metadata', JSON.stringify(metadata));
      if (extractionStrategy !== undefined) f.set('extractionStrategy', JSON.stringify(extractionStrategy));
      f.set('video', blob, filename ?? 'video');
      return f;
    };
    return this.call({ method: 'POST', path: '/v1/video/upload', form, retry: 'unprocessed' }, opts);
  }

  /** GET /v1/video/status/{decisionId} */
  videoStatus(decisionId: string, opts?: RequestOptions): Promise<VideoStatus> {
    return this.get(`/v1/video/status/${id(decisionId)}`, opts);
  }

  /** GET /v1/video/result/{decisionId}: `status` says completed, processing (a 202) or failed. */
  videoResult(decisionId: string, opts?: RequestOptions): Promise<VideoResult> {
    return this.get(`/v1/video/result/${id(decisionId)}`, opts);
  }

  // ---- policies -----------------------------------------------------------------------

  /** POST /v1/policies: creates or replaces (a new version). */
  savePolicy(policyId: string, yamlContent: string, opts?: RequestOptions): Promise<Policy> {
    return this.call({ method: 'POST', path: '/v1/policies', body: { policyId, yamlContent }, retry: 'idempotent' }, opts);
  }

  /** GET /v1/policies/{policyId} */
  getPolicy(policyId: string, opts?: RequestOptions): Promise<Policy> {
    return this.get(`/v1/policies/${id(policyId)}`, opts);
  }

  /** GET /v1/policies */
  listPolicies(opts?: RequestOptions): Promise<{ policies: Policy[] }> {
    return this.get('/v1/policies', opts);
  }

  /** POST /v1/policies/{policyId}/impact: the stored decisions replayed under a candidate; nothing is recorded. */
  policyImpact(policyId: string, request: PolicyImpactRequest, opts?: RequestOptions): Promise<PolicyImpact> {
    return this.call({ method: 'POST', path: `/v1/policies/${id(policyId)}/impact`, body: request, retry: 'idempotent' }, opts);
  }

  // ---- decisions ----------------------------------------------------------------------

  /** GET /v1/decisions/{decisionId} */
  getDecision(decisionId: string, opts?: RequestOptions): Promise<StoredDecision> {
    return this.get(`/v1/decisions/${id(decisionId)}`, opts);
  }

  /** GET /v1/decisions: one page, newest first. */
  listDecisions(filter: DecisionFilter = {}, opts?: RequestOptions): Promise<DecisionList> {
    return this.get('/v1/decisions', opts, { query: { ...filter } });
  }

  /** Every decision matching the filter, newest first (`limit` is the page size, default 100). */
  iterateDecisions(filter: DecisionFilter = {}, opts?: RequestOptions): AsyncGenerator<StoredDecision, void, undefined> {
    return iterateDecisionPages((f) => this.listDecisions(f, opts), filter);
  }

  /** POST /v1/decisions/{decisionId}/replay: what that policy would have decided; nothing is recorded. */
  replayDecision(decisionId: string, policyId: string, opts?: RequestOptions): Promise<ReplayedDecision> {
    return this.call({ method: 'POST', path: `/v1/decisions/${id(decisionId)}/replay`, body: { policyId }, retry: 'idempotent' }, opts);
  }

  /** GET /v1/decisions/{decisionId}/curl */
  decisionCurl(decisionId: string, opts?: RequestOptions): Promise<DecisionCurl> {
    return this.get(`/v1/decisions/${id(decisionId)}/curl`, opts);
  }

  // ---- media --------------------------------------------------------------------------

  /** GET /v1/media/sha256/{hex}: an image a decision scored, while kept. Takes the hex or the `media:sha256:<hex>` reference. */
  getMedia(sha256OrRef: string, opts?: RequestOptions): Promise<Media> {
    const hex = sha256OrRef.replace(/^media:sha256:/, '');
    return this.get(`/v1/media/sha256/${id(hex)}`, opts, { accept: 'bytes' });
  }

  // ---- keys ---------------------------------------------------------------------------

  /** POST /v1/keys (201): the key is shown once. */
  createKey(request: CreateKeyRequest, opts?: RequestOptions): Promise<CreatedApiKey> {
    return this.call({ method: 'POST', path: '/v1/keys', body: request, retry: 'unprocessed' }, opts);
  }

  /** GET /v1/keys */
  listKeys(opts?: RequestOptions): Promise<{ keys: ApiKey[] }> {
    return this.get('/v1/keys', opts);
  }

  /** DELETE /v1/keys/{keyId}: it stops working at once. */
  revokeKey(keyId: string, opts?: RequestOptions): Promise<ApiKey> {
    return this.call({ method: 'DELETE', path: `/v1/keys/${id(keyId)}`, retry: 'idempotent' }, opts);
  }

  // ---- agent guardrails ---------------------------------------------------------------

  /** POST /v1/agent/guardrails/skill-vetting */
  vetSkill(request: SkillVettingRequest, opts?: RequestOptions): Promise<GuardrailDecision> {
    return this.call({ method: 'POST', path: '/v1/agent/guardrails/skill-vetting', body: request, retry: 'unprocessed' }, opts);
  }

  /** POST /v1/agent/guardrails/action-authorize */
  authorizeAction(request: ActionAuthorizeRequest, opts?: RequestOptions): Promise<GuardrailDecision> {
    return this.call({ method: 'POST', path: '/v1/agent/guardrails/action-authorize', body: request, retry: 'unprocessed' }, opts);
  }

  /** GET /v1/agent/guardrails/policy?projectId= (404 GUARDRAIL_POLICY_NOT_FOUND while the defaults apply) */
  getGuardrailPolicy(projectId: string, opts?: RequestOptions): Promise<ProjectGuardrailPolicy> {
    return this.get('/v1/agent/guardrails/policy', opts, { query: { projectId } });
  }

  /** PUT /v1/agent/guardrails/policy: all four fields. */
  putGuardrailPolicy(projectId: string, policy: GuardrailPolicy, opts?: RequestOptions): Promise<ProjectGuardrailPolicy> {
    return this.call({ method: 'PUT', path: '/v1/agent/guardrails/policy', body: { projectId, policy }, retry: 'idempotent' }, opts);
  }

  /** GET /v1/agent/guardrails/policy/history?projectId= (newest first) */
  guardrailPolicyHistory(projectId: string, opts?: RequestOptions): Promise<GuardrailPolicyHistory> {
    return this.get('/v1/agent/guardrails/policy/history', opts, { query: { projectId } });
  }

  /** POST /v1/agent/guardrails/policy/rollback: appends a new version equal to `version`. */
  rollbackGuardrailPolicy(projectId: string, version: string, opts?: RequestOptions): Promise<GuardrailRollback> {
    return this.call({ method: 'POST', path: '/v1/agent/guardrails/policy/rollback', body: { projectId, version }, retry: 'unprocessed' }, opts);
  }

  /** GET /v1/agent/guardrails/metrics?projectId=&days= (days 1–365, default 7) */
  guardrailMetrics(projectId: string, days?: number, opts?: RequestOptions): Promise<GuardrailMetrics> {
    return this.get('/v1/agent/guardrails/metrics', opts, { query: { projectId, days } });
  }

  /** POST /v1/agent/guardrails/sessions (201): a token to hand to an agent instead of the key. */
  createGuardrailSession(request: GuardrailSessionRequest, opts?: RequestOptions): Promise<GuardrailSession> {
    // Tokens are stateless signed claims: minting one twice records nothing.
    return this.call({ method: 'POST', path: '/v1/agent/guardrails/sessions', body: request, retry: 'idempotent' }, opts);
  }

  // ---- webhooks -----------------------------------------------------------------------

  /** POST /v1/webhooks (201): the answer carries the signing `secret`, shown only here. */
  createWebhook(request: CreateWebhookRequest, opts?: RequestOptions): Promise<CreatedWebhook> {
    return this.call({ method: 'POST', path: '/v1/webhooks', body: request, retry: 'unprocessed' }, opts);
  }

  /** GET /v1/webhooks (oldest first) */
  listWebhooks(opts?: RequestOptions): Promise<{ webhooks: Webhook[] }> {
    return this.get('/v1/webhooks', opts);
  }

  /** GET /v1/webhooks/{webhookId} */
  getWebhook(webhookId: string, opts?: RequestOptions): Promise<Webhook> {
    return this.get(`/v1/webhooks/${id(webhookId)}`, opts);
  }

  /** PATCH /v1/webhooks/{webhookId} */
  updateWebhook(webhookId: string, changes: UpdateWebhookRequest, opts?: RequestOptions): Promise<Webhook> {
    return this.call({ method: 'PATCH', path: `/v1/webhooks/${id(webhookId)}`, body: changes, retry: 'idempotent' }, opts);
  }

  /** DELETE /v1/webhooks/{webhookId} */
  deleteWebhook(webhookId: string, opts?: RequestOptions): Promise<{ id: string; deleted: true }> {
    return this.call({ method: 'DELETE', path: `/v1/webhooks/${id(webhookId)}`, retry: 'idempotent' }, opts);
  }

  /** POST /v1/webhooks/{webhookId}/test: one real signed delivery, answered once done. */
  testWebhook(webhookId: string, eventType: string, opts?: RequestOptions): Promise<WebhookTestResult> {
    return this.call({ method: 'POST', path: `/v1/webhooks/${id(webhookId)}/test`, body: { eventType }, retry: 'unprocessed' }, opts);
  }

  /** GET /v1/webhooks/{webhookId}/deliveries?limit= (one entry per attempt, newest first) */
  listWebhookDeliveries(webhookId: string, limit?: number, opts?: RequestOptions): Promise<{ deliveries: WebhookDelivery[] }> {
    return this.get(`/v1/webhooks/${id(webhookId)}/deliveries`, opts, { query: { limit } });
  }
}
