import { GUARDRAIL_ACTIONS, GUARDRAIL_CATEGORIES, GuardrailAction, GuardrailCategory, PERMISSIONS } from '@cds/guardrails';
import { Named, Field, inline, OptionalField } from '../openapi/answer-fields';
import { arr, bool, dateTime, int, nullable, num, oneOfValues, ref, Schema, str, uuid } from '../openapi/schema-builders';

/** The answers of /v1/agent/guardrails, and the policy they carry (bodies: guardrails.requests.ts). */
const keys = <T extends object>(o: T) => Object.keys(o);

/** The permissions a skill or an action may request: a named schema the bodies refer to. */
export const GUARDRAIL_PERMISSION_SCHEMA = oneOfValues(keys(PERMISSIONS));

@Named()
export class GuardrailDecision {
  @Field(uuid()) decisionId!: string;
  @Field(oneOfValues(GUARDRAIL_ACTIONS)) action!: GuardrailAction;
  @Field(num('0 to 100; compared with requireApprovalScore')) riskScore!: number;
  @Field(arr(str())) reasons!: string[];
  @Field(arr(oneOfValues(keys(GUARDRAIL_CATEGORIES)))) categories!: GuardrailCategory[];
  @Field(bool()) requiresApproval!: boolean;
}

@Named('optional: widens or narrows the built-in system zones (libs/guardrails/GUARDRAILS.md, "System zones")')
export class GuardrailSystemZones {
  @OptionalField(arr(str('a path prefix protected like system configuration'))) add?: string[];
  @OptionalField(arr(str('a path prefix where the built-in system zones do not apply'))) exempt?: string[];
}

const stringOrList = (description: string): Schema => ({ description, oneOf: [str(), arr(str())] });

class SessionRuleStep {
  @OptionalField(stringOrList('the action is one of these action types')) actionType?: string | string[];
  @OptionalField(stringOrList('its decision had one of these categories')) category?: string | string[];
  @OptionalField(stringOrList('it did one of: secret_read, network, network_egress, download, run, startup_write, exec')) fact?: string | string[];
  @OptionalField(str('a blockShellPatterns glob matched against the command')) command?: string;
  @OptionalField(str('the same glob syntax, matched against the targetPath')) targetPath?: string;
}

@Named("a sequence of a session's actions (2 to 8 steps, the last one the action being authorized)")
export class GuardrailSessionRule {
  @Field(str('unique in the policy, at most 64 characters')) name!: string;
  @Field(arr(inline(SessionRuleStep, 'at least one condition; all the conditions it sets must hold'))) steps!: SessionRuleStep[];
  @Field(oneOfValues(['flag', 'block'])) action!: 'flag' | 'block';
  @OptionalField(int('how many earlier actions of the session the steps may reach back: 1 to 200, default 50')) within?: number;
}

export const SESSION_RULES = arr(ref(GuardrailSessionRule), 'optional: at most 32 rules');

@Named()
export class GuardrailPolicy {
  @Field(arr(str())) sensitivePathPrefixes!: string[];
  @Field(arr(str())) networkAllowlist!: string[];
  @Field(arr(str())) blockShellPatterns!: string[];
  @Field(num()) requireApprovalScore!: number;
  @OptionalField(ref(GuardrailSystemZones)) systemZones?: GuardrailSystemZones;
  @OptionalField(SESSION_RULES) sessionRules?: GuardrailSessionRule[];
}

@Named()
export class GuardrailPolicyAnswer {
  @Field(str()) projectId!: string;
  @Field(ref(GuardrailPolicy)) policy!: GuardrailPolicy;
}

@Named()
export class GuardrailPolicyHistoryEntry {
  @Field(str('opaque version identifier')) version!: string;
  @Field(dateTime()) updatedAt!: string;
  @Field(str('key:<keyId> or session:<tokenId>')) updatedBy!: string;
  @Field(ref(GuardrailPolicy)) policy!: GuardrailPolicy;
  @Field(nullable(str('the version this one restored (a rollback), else null'))) restoredVersion!: string | null;
}

@Named()
export class GuardrailPolicyHistory {
  @Field(str()) projectId!: string;
  @Field(arr(ref(GuardrailPolicyHistoryEntry))) history!: GuardrailPolicyHistoryEntry[];
}

@Named()
export class GuardrailRollback {
  @Field(str()) projectId!: string;
  @Field(str()) version!: string;
  @Field(str()) restoredVersion!: string;
  @Field(dateTime()) updatedAt!: string;
  @Field(str()) updatedBy!: string;
  @Field(ref(GuardrailPolicy)) policy!: GuardrailPolicy;
}

class GuardrailDay {
  @Field(str('YYYY-MM-DD', { format: 'date' })) date!: string;
  @Field(int()) total!: number;
  @Field(int()) blocked!: number;
  @Field(int()) approvalRequired!: number;
}

@Named()
export class GuardrailMetrics {
  @Field(str()) projectId!: string;
  @Field(int()) days!: number;
  @Field(int()) total!: number;
  @Field(int()) blocked!: number;
  @Field(int()) approvalRequired!: number;
  @Field(num()) blockRate!: number;
  @Field(num()) approvalRate!: number;
  @Field(int()) skillVetting!: number;
  @Field(int()) runtimeAuthorization!: number;
  @Field(arr(inline(GuardrailDay))) daily!: GuardrailDay[];
}

@Named()
export class SessionToken {
  @Field(str()) token!: string;
  @Field(uuid()) tokenId!: string;
  @Field(str()) projectId!: string;
  @Field(bool()) policyWrite!: boolean;
  @Field(dateTime()) expiresAt!: string;
}
