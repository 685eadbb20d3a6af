import { ACTION_TYPES, ActionType, MAINTAINER_REPUTATIONS, MaintainerReputation, Permission, SKILL_SOURCES, SkillSource } from '@cds/guardrails';
import { Named, Field, OptionalField } from '../openapi/answer-fields';
import { arr, bool, int, num, oneOfValues, ref, str } from '../openapi/schema-builders';
import { GuardrailPolicy, GuardrailSessionRule, GuardrailSystemZones, SESSION_RULES } from './guardrails.answers';
import { PROJECT_ID_PATTERN } from './project-access';
import { SESSION_TTL } from './guardrail-sessions.service';

/**
 * The bodies of the guardrail endpoints, as the document describes them. The guardrail
 * engine validates them itself (422 with a code naming the field: libs/guardrails), so
 * these classes only declare their shape for the document and the SDK.
 */
const keys = <T extends object>(o: T) => Object.keys(o);
const permissions = arr(ref('GuardrailPermission'));

/** A project id as the guardrail endpoints take it. */
export const PROJECT_ID = str('the project: 1-128 letters, digits, ".", "_", ":" or "-"', { pattern: PROJECT_ID_PATTERN.source });

@Named('any subset of the project policy fields; the missing ones come from the project policy, then the defaults', { additionalProperties: false })
export class PartialGuardrailPolicy {
  @OptionalField(arr(str())) sensitivePathPrefixes?: string[];
  @OptionalField(arr(str())) networkAllowlist?: string[];
  @OptionalField(arr(str())) blockShellPatterns?: string[];
  @OptionalField(num()) requireApprovalScore?: number;
  @OptionalField(ref(GuardrailSystemZones)) systemZones?: GuardrailSystemZones;
  @OptionalField(SESSION_RULES) sessionRules?: GuardrailSessionRule[];
}

@Named()
export class SkillVettingRequest {
  @Field(str(undefined, { minLength: 1 })) skillId!: string;
  @OptionalField(str()) name?: string;
  @OptionalField(oneOfValues(keys(SKILL_SOURCES))) source?: SkillSource;
  @OptionalField(str('skill purpose text')) prompt?: string;
  @OptionalField(permissions) requestedPermissions?: Permission[];
  @OptionalField(bool()) hasChecksum?: boolean;
  @OptionalField(bool()) signedPublisher?: boolean;
  @OptionalField(oneOfValues(keys(MAINTAINER_REPUTATIONS))) maintainerReputation?: MaintainerReputation;
  @OptionalField(PROJECT_ID) projectId?: string;
  @OptionalField(ref(PartialGuardrailPolicy)) policy?: PartialGuardrailPolicy;
}

@Named()
export class ActionAuthorizeRequest {
  @Field(oneOfValues(keys(ACTION_TYPES))) actionType!: ActionType;
  @OptionalField(str()) command?: string;
  @OptionalField(str('a file path, or a URL for network action types')) targetPath?: string;
  @OptionalField(permissions) requestedPermissions?: Permission[];
  @OptionalField(PROJECT_ID) projectId?: string;
  @OptionalField(ref(PartialGuardrailPolicy)) policy?: PartialGuardrailPolicy;
}

@Named('projectId is required with an API key; a session token names its own')
export class GuardrailPolicyPut {
  @Field(ref(GuardrailPolicy)) policy!: GuardrailPolicy;
  @OptionalField(PROJECT_ID) projectId?: string;
}

@Named()
export class GuardrailRollbackRequest {
  @Field(str('a history version identifier')) version!: string;
  @OptionalField(PROJECT_ID) projectId?: string;
}

@Named()
export class SessionRequest {
  @Field(PROJECT_ID) projectId!: string;
  @OptionalField(int(`lifetime of the token, default ${SESSION_TTL.default}`, { minimum: SESSION_TTL.min, maximum: SESSION_TTL.max })) ttlSeconds?: number;
  @OptionalField(bool('may the token change the project policy')) policyWrite?: boolean;
}
