/** Agent guardrails (README "Agent guardrails"). */
import type { Action } from './checks.types';

export interface GuardrailPolicy {
  sensitivePathPrefixes: string[];
  networkAllowlist: string[];
  blockShellPatterns: string[];
  /** Risk score at which approval is required. */
  requireApprovalScore: number;
  /** Optional: widens (`add`) or narrows (`exempt`) the built-in system zones. */
  systemZones?: { add?: string[]; exempt?: string[] };
  /** Optional: sequences of a session's actions to flag or block (the last step is the action authorized). */
  sessionRules?: Array<{
    name: string;
    steps: Array<Partial<Record<'actionType' | 'category' | 'fact' | 'command' | 'targetPath', string | string[]>>>;
    within?: number;
    action: 'flag' | 'block';
  }>;
}

export type SkillSource = 'official' | 'verified_publisher' | 'internal' | 'local' | 'github' | 'public_marketplace' | 'unknown';
export type MaintainerReputation = 'trusted' | 'established' | 'new' | 'low' | 'unknown';
export type ActionType =
  | 'exec'
  | 'shell'
  | 'code_eval'
  | 'file_read'
  | 'file_write'
  | 'file_delete'
  | 'network_request'
  | 'http_request'
  | 'browser'
  | 'database_query'
  | 'install_package'
  | 'git_push'
  | 'send_email'
  | 'spawn_agent'
  | 'deploy'
  | 'secret_access';

/** Both decision endpoints take a project and an inline policy (any subset of its fields; field by field it wins over the project's). */
interface GuardrailScope {
  projectId?: string;
  policy?: Partial<GuardrailPolicy>;
}

export interface SkillVettingRequest extends GuardrailScope {
  skillId: string;
  name?: string;
  source?: SkillSource;
  /** The skill's purpose text. */
  prompt?: string;
  requestedPermissions?: string[];
  hasChecksum?: boolean;
  signedPublisher?: boolean;
  maintainerReputation?: MaintainerReputation;
}

export interface ActionAuthorizeRequest extends GuardrailScope {
  actionType: ActionType;
  command?: string;
  targetPath?: string;
  requestedPermissions?: string[];
}

export interface GuardrailDecision {
  decisionId: string;
  action: Action;
  /** Integer 0–100 (allow < 25 ≤ warn < 50 ≤ flag < 80 ≤ block). */
  riskScore: number;
  reasons: string[];
  categories: string[];
  /** riskScore >= requireApprovalScore */
  requiresApproval: boolean;
}

export interface ProjectGuardrailPolicy {
  projectId: string;
  policy: GuardrailPolicy;
}

export interface GuardrailPolicyHistoryEntry {
  /** Opaque (a UUID). */
  version: string;
  updatedAt: string;
  /** `key:<keyId>` or `session:<tokenId>`. */
  updatedBy: string;
  policy: GuardrailPolicy;
  restoredVersion: string | null;
}

export interface GuardrailPolicyHistory {
  projectId: string;
  /** Newest first. */
  history: GuardrailPolicyHistoryEntry[];
}

export interface GuardrailRollback {
  projectId: string;
  version: string;
  restoredVersion: string;
  updatedAt: string;
  updatedBy: string;
  policy: GuardrailPolicy;
}

export interface GuardrailMetrics {
  projectId: string;
  days: number;
  total: number;
  blocked: number;
  approvalRequired: number;
  blockRate: number;
  approvalRate: number;
  skillVetting: number;
  runtimeAuthorization: number;
  /** One bucket per day, oldest first. */
  daily: { date: string; total: number; blocked: number; approvalRequired: number }[];
}

export interface GuardrailSessionRequest {
  projectId: string;
  /** 60–86400, default 900. */
  ttlSeconds?: number;
  /** Lets the token change the project's policy. */
  policyWrite?: boolean;
}

export interface GuardrailSession {
  /** `cds_st_…`: pass it as `apiKey` to a CdsClient for the agent. */
  token: string;
  tokenId: string;
  projectId: string;
  policyWrite: boolean;
  expiresAt: string;
}
