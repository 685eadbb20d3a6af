import { Action, CategoryResult, ScoreMap } from '@cds/events';

/** Where a document's latest state came from: guards against older events. */
export interface DocPosition {
  topic: string;
  partition: number;
  offset: number;
}

export interface DecisionDoc {
  decisionId: string;
  tenantId: string;
  requestId: string | null;
  content: string;
  contentType: string;
  language: string;
  metadata: Record<string, unknown>;
  policyId: string;
  policyVersion: number;
  provider: string;
  signals: ScoreMap;
  categories: CategoryResult[];
  action: Action;
  safe: boolean;
  flagged: boolean;
  latency: number;
  cost: number;
  timestamp: string;
}

export interface PolicyDoc {
  tenantId: string;
  policyId: string;
  name: string;
  version: number;
  yamlContent: string;
  categories: Record<string, { threshold: number; action: Action; provider?: string }>;
  createdAt: string;
  updatedAt: string;
  updatedBy: string;
}

export interface KeyDoc {
  keyId: string;
  tenantId: string;
  name: string;
  scopes: string[];
  hash: string;
  prefix: string;
  createdAt: string;
  createdBy: string;
  revokedAt: string | null;
}

export interface DecisionFilter {
  limit: number;
  offset: number;
  action?: Action;
  policyId?: string;
  from?: string;
  to?: string;
}
