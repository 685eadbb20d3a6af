import { createHash, randomBytes } from 'node:crypto';
import type { estypes } from '@elastic/elasticsearch';

/** One index per document type. Names carry no dash, so `<prefix>-<type>` never reads
 * as another prefix's alias whatever dashes the prefix holds. */
export const DOC_TYPES = [
  'decisions',
  'policies',
  'keys',
  'guardrail_decisions',
  'guardrail_policy_versions',
  'webhooks',
  'deliveries',
  'delivery_attempts',
  'batches',
  'positions',
] as const;
export type DocType = (typeof DOC_TYPES)[number];

const GENERATION = /^g[0-9a-z]{9}[0-9a-f]{8}$/;

/** A sortable, unique generation name: creation time, then randomness. */
export function newGenerationName(now = Date.now()): string {
  return `g${now.toString(36).padStart(9, '0')}${randomBytes(4).toString('hex')}`;
}

export const aliasName = (prefix: string, type: DocType) => `${prefix}-${type}`;
export const indexName = (prefix: string, type: DocType, generation: string) => `${prefix}-${type}-${generation}`;

/** The generation of one of this prefix's indices of `type`, or null for any other name. */
export function generationOf(prefix: string, type: DocType, index: string): string | null {
  const head = `${prefix}-${type}-`;
  if (!index.startsWith(head)) return null;
  const gen = index.slice(head.length);
  return GENERATION.test(gen) ? gen : null;
}

/** Document ids from their natural key; hashed only when too long for an _id (512 bytes). */
export function docId(...parts: string[]): string {
  const raw = parts.map(encodeURIComponent).join(':');
  return Buffer.byteLength(raw) <= 512 ? raw : `sha256:${createHash('sha256').update(raw).digest('hex')}`;
}

const keyword: estypes.MappingProperty = { type: 'keyword' };
const date: estypes.MappingProperty = { type: 'date', format: 'strict_date_optional_time' };
/** Kept in _source only: free-form parts no query looks into. */
const opaque: estypes.MappingProperty = { type: 'object', enabled: false };
const storedText: estypes.MappingProperty = { type: 'text', index: false };
/** Log offset of the event that wrote the document (ordering, and first-wins lookups). */
const pos: estypes.MappingProperty = { type: 'long' };

/** Explicit, strict mappings: a document with an unknown field is refused, never guessed. */
export const MAPPINGS: Record<DocType, estypes.MappingTypeMapping> = {
  decisions: {
    dynamic: 'strict',
    properties: {
      decisionId: keyword,
      tenantId: keyword,
      requestId: keyword,
      content: { type: 'text', analyzer: 'standard' },
      contentType: keyword,
      language: keyword,
      metadata: opaque,
      policyId: keyword,
      policyVersion: { type: 'long' },
      provider: keyword,
      signals: opaque,
      parts: opaque,
      categories: opaque,
      action: keyword,
      safe: { type: 'boolean' },
      flagged: { type: 'boolean' },
      latency: { type: 'double' },
      cost: { type: 'double' },
      timestamp: date,
      // Derived for the audit filters: metadata stays free-form (a userId of any shape cannot
      // make a document unindexable), its userId is copied here when it is a string or number.
      userId: keyword,
      triggeredCategories: keyword,
      pos,
      partition: { type: 'integer' },
    },
  },
  policies: {
    dynamic: 'strict',
    properties: {
      tenantId: keyword,
      policyId: keyword,
      name: keyword,
      version: { type: 'long' },
      yamlContent: storedText,
      categories: opaque,
      createdAt: date,
      updatedAt: date,
      updatedBy: keyword,
    },
  },
  keys: {
    dynamic: 'strict',
    properties: {
      keyId: keyword,
      tenantId: keyword,
      name: keyword,
      scopes: keyword,
      hash: keyword,
      prefix: keyword,
      createdAt: date,
      createdBy: keyword,
      revokedAt: date,
    },
  },
  guardrail_decisions: {
    dynamic: 'strict',
    properties: {
      decisionId: keyword,
      tenantId: keyword,
      projectId: keyword,
      kind: keyword,
      action: keyword,
      riskScore: { type: 'double' },
      reasons: storedText,
      categories: keyword,
      requiresApproval: { type: 'boolean' },
      request: opaque,
      policy: opaque,
      policyOrigin: opaque,
      decidedBy: keyword,
      latency: { type: 'double' },
      timestamp: date,
      skill: { properties: { skillId: keyword, contentHash: keyword } },
      session: { properties: { sessionId: keyword, facts: opaque } },
    },
  },
  guardrail_policy_versions: {
    dynamic: 'strict',
    properties: {
      tenantId: keyword,
      projectId: keyword,
      version: keyword,
      policy: opaque,
      updatedAt: date,
      updatedBy: keyword,
      restoredVersion: keyword,
      pos,
      partition: { type: 'integer' },
    },
  },
  webhooks: {
    dynamic: 'strict',
    properties: {
      webhookId: keyword,
      tenantId: keyword,
      url: storedText,
      events: keyword,
      description: storedText,
      enabled: { type: 'boolean' },
      secretCiphertext: storedText,
      createdAt: date,
      updatedAt: date,
      disabledReason: storedText,
      deletedAt: date,
    },
  },
  deliveries: {
    dynamic: 'strict',
    properties: {
      deliveryId: keyword,
      tenantId: keyword,
      webhookId: keyword,
      target: opaque,
      eventId: keyword,
      eventType: keyword,
      payload: opaque,
      state: keyword,
      attempts: { type: 'integer' },
      nextAttemptAt: date,
      lastError: storedText,
      createdAt: date,
      updatedAt: date,
    },
  },
  delivery_attempts: {
    dynamic: 'strict',
    properties: {
      deliveryId: keyword,
      tenantId: keyword,
      webhookId: keyword,
      eventId: keyword,
      eventType: keyword,
      attempt: { type: 'integer' },
      status: keyword,
      url: storedText,
      responseCode: { type: 'integer' },
      durationMs: { type: 'double' },
      error: storedText,
      nextAttemptAt: date,
      test: { type: 'boolean' },
      timestamp: date,
      pos,
      partition: { type: 'integer' },
    },
  },
  batches: {
    dynamic: 'strict',
    properties: {
      batchId: keyword,
      tenantId: keyword,
      policyId: keyword,
      status: keyword,
      totalItems: { type: 'integer' },
      webhookUrl: storedText,
      signingWebhookId: keyword,
      secretCiphertext: storedText,
      results: opaque,
      succeeded: { type: 'integer' },
      failed: { type: 'integer' },
      error: opaque,
      createdAt: date,
      completedAt: date,
      // video jobs (kind video): the request, the last checkpoint
      kind: keyword,
      video: opaque,
      videoProgress: opaque,
      stoppedOnBlock: { type: 'boolean' },
    },
  },
  positions: {
    dynamic: 'strict',
    properties: { topic: keyword, partition: { type: 'integer' }, nextOffset: { type: 'long' } },
  },
};
