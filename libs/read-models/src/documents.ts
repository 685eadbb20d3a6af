import { Action, CategoryResult, GuardrailActionName, GuardrailKind, GuardrailPolicyData, ScoreMap } from '@cds/events';

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

export interface GuardrailDecisionDoc {
  decisionId: string;
  tenantId: string;
  projectId: string | null;
  kind: GuardrailKind;
  action: GuardrailActionName;
  riskScore: number;
  reasons: string[];
  categories: string[];
  requiresApproval: boolean;
  request: Record<string, unknown>;
  policy: GuardrailPolicyData;
  policyOrigin: Record<string, string>;
  decidedBy: string;
  latency: number;
  timestamp: string;
}

/** One entry of a project's guardrail policy history; the newest is the project's policy. */
export interface GuardrailPolicyVersionDoc {
  tenantId: string;
  projectId: string;
  version: string;
  policy: GuardrailPolicyData;
  updatedAt: string;
  updatedBy: string;
  restoredVersion: string | null;
}

export interface GuardrailDayCounts {
  /** YYYY-MM-DD (UTC). */
  date: string;
  total: number;
  blocked: number;
  approvalRequired: number;
}

/** Counts over a time window; `daily` lists only the days that have decisions, oldest first. */
export interface GuardrailCounts {
  total: number;
  blocked: number;
  approvalRequired: number;
  skillVetting: number;
  runtimeAuthorization: number;
  daily: GuardrailDayCounts[];
}
