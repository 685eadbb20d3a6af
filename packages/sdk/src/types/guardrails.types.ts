/** Agent guardrails (README "Agent guardrails").
 * The service's OpenAPI schemas (openapi.generated.ts, `npm run sdk:types`). */
import type { components } from './openapi.generated';

type Schemas = components['schemas'];

/** `requireApprovalScore`: the risk score at which approval is required. Optional `systemZones` widen (`add`) or
 * narrow (`exempt`) the built-in system zones; optional `sessionRules` are sequences of a session's actions to flag
 * or block (the last step is the action authorized). */
export type GuardrailPolicy = Schemas['GuardrailPolicy'];

export type SkillSource = NonNullable<Schemas['SkillVettingRequest']['source']>;
export type MaintainerReputation = NonNullable<Schemas['SkillVettingRequest']['maintainerReputation']>;
export type ActionType = Schemas['ActionAuthorizeRequest']['actionType'];

/** Both decision endpoints take a `projectId` and an inline `policy` (any subset of its fields; field by field it
 * wins over the project's). `prompt` is the skill's purpose text. */
export type SkillVettingRequest = Schemas['SkillVettingRequest'];

export type ActionAuthorizeRequest = Schemas['ActionAuthorizeRequest'];

/** `riskScore`: 0–100 (allow < 25 ≤ warn < 50 ≤ flag < 80 ≤ block); `requiresApproval`: riskScore >= requireApprovalScore. */
export type GuardrailDecision = Schemas['GuardrailDecision'];

export type ProjectGuardrailPolicy = Schemas['GuardrailPolicyAnswer'];

/** `version` is opaque (a UUID); `updatedBy` is `key:<keyId>` or `session:<tokenId>`. */
export type GuardrailPolicyHistoryEntry = Schemas['GuardrailPolicyHistoryEntry'];

/** `history`: newest first. */
export type GuardrailPolicyHistory = Schemas['GuardrailPolicyHistory'];

export type GuardrailRollback = Schemas['GuardrailRollback'];

/** `daily`: one bucket per day, oldest first. */
export type GuardrailMetrics = Schemas['GuardrailMetrics'];

/** `ttlSeconds`: 60–86400, default 900; `policyWrite` lets the token change the project's policy. */
export type GuardrailSessionRequest = Schemas['SessionRequest'];

/** `token` (`cds_st_…`): pass it as `apiKey` to a CdsClient for the agent. */
export type GuardrailSession = Schemas['SessionToken'];
