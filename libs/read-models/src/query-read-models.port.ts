import {
  DecisionDoc,
  DecisionFilter,
  GuardrailCounts,
  GuardrailDecisionDoc,
  GuardrailPolicyVersionDoc,
  GuardrailSessionActionDoc,
  KeyDoc,
  PolicyDoc,
} from './documents';

/**
 * The query ports, one per context: what a service reads, named for it (all served by
 * ReadModels under READ_MODELS). Every query is scoped by tenant, except a key's lookup
 * by its hash (authentication comes before the tenant is known).
 */

export interface DecisionReadModels {
  getDecision(tenantId: string, decisionId: string): Promise<DecisionDoc | null>;
  findDecisionByRequestId(tenantId: string, requestId: string): Promise<DecisionDoc | null>;
  listDecisions(tenantId: string, filter: DecisionFilter): Promise<DecisionDoc[]>;
}

export interface PolicyReadModels {
  getPolicy(tenantId: string, policyId: string): Promise<PolicyDoc | null>;
  listPolicies(tenantId: string): Promise<PolicyDoc[]>;
}

export interface KeyReadModels {
  findKeyByHash(hash: string): Promise<KeyDoc | null>;
  getKey(tenantId: string, keyId: string): Promise<KeyDoc | null>;
  listKeys(tenantId: string): Promise<KeyDoc[]>;
}

export interface GuardrailReadModels {
  getGuardrailDecision(tenantId: string, decisionId: string): Promise<GuardrailDecisionDoc | null>;
  /**
   * The vetting a skill of the project is pinned to: its newest vetting that did not
   * require approval, else its first vetting; null when it was never vetted (since pinning).
   */
  getSkillPin(tenantId: string, projectId: string | null, skillId: string): Promise<GuardrailDecisionDoc | null>;
  /** The newest `limit` action authorizations of a session, newest first. */
  listSessionActions(tenantId: string, sessionId: string, limit: number): Promise<GuardrailSessionActionDoc[]>;
  /** The project's current guardrail policy: its newest version by log position. */
  getGuardrailPolicy(tenantId: string, projectId: string): Promise<GuardrailPolicyVersionDoc | null>;
  getGuardrailPolicyVersion(tenantId: string, projectId: string, version: string): Promise<GuardrailPolicyVersionDoc | null>;
  /** Every version of the project's policy, newest first. */
  listGuardrailPolicyHistory(tenantId: string, projectId: string): Promise<GuardrailPolicyVersionDoc[]>;
  /** Counts of the project's guardrail decisions with `from <= timestamp < to` (ISO 8601 UTC). */
  guardrailCounts(tenantId: string, projectId: string, from: string, to: string): Promise<GuardrailCounts>;
}
