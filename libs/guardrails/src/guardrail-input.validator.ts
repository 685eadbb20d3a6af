/**
 * Request validation for the two decision endpoints. Fields the engine does not know
 * (projectId, policy, anything else) are ignored here; the endpoint reads those.
 * Missing optional fields take their most cautious value (no checksum, unsigned,
 * unknown source and reputation); unknown enum values are rejected, never guessed.
 */
import { ActionAuthorizeInput } from './action-authorization';
import {
  ACTION_TYPES,
  ActionType,
  MAINTAINER_REPUTATIONS,
  MaintainerReputation,
  Permission,
  PERMISSIONS,
  SKILL_SOURCES,
  SkillSource,
} from './guardrail-values';
import { asObject, GUARDRAIL_ERROR_CODES, LIMITS, readBoolean, readEnum, readEnumArray, readString } from './guardrail-validation.helpers';
import { SkillVettingInput } from './skill-vetting';

const CODE = GUARDRAIL_ERROR_CODES.invalidRequest;
const SOURCES = Object.keys(SKILL_SOURCES) as SkillSource[];
const REPUTATIONS = Object.keys(MAINTAINER_REPUTATIONS) as MaintainerReputation[];
const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];
const ACTION_TYPE_NAMES = Object.keys(ACTION_TYPES) as ActionType[];

export function validateSkillVettingInput(x: unknown): SkillVettingInput {
  const o = asObject(x, CODE, 'skill-vetting request');
  return {
    skillId: readString(o, 'skillId', CODE, { max: LIMITS.idLength, required: true }),
    name: readString(o, 'name', CODE, { max: LIMITS.nameLength }),
    source: readEnum(o, 'source', SOURCES, 'unknown', CODE),
    prompt: readString(o, 'prompt', CODE, { max: LIMITS.promptLength, allowNewlines: true }),
    requestedPermissions: readEnumArray(o, 'requestedPermissions', PERMISSION_NAMES, LIMITS.permissions, CODE),
    hasChecksum: readBoolean(o, 'hasChecksum', CODE, false),
    signedPublisher: readBoolean(o, 'signedPublisher', CODE, false),
    maintainerReputation: readEnum(o, 'maintainerReputation', REPUTATIONS, 'unknown', CODE),
  };
}

export function validateActionAuthorizeInput(x: unknown): ActionAuthorizeInput {
  const o = asObject(x, CODE, 'action-authorize request');
  return {
    actionType: readEnum(o, 'actionType', ACTION_TYPE_NAMES, undefined, CODE),
    command: readString(o, 'command', CODE, { max: LIMITS.commandLength, allowNewlines: true }),
    targetPath: readString(o, 'targetPath', CODE, { max: LIMITS.targetPathLength }),
    requestedPermissions: readEnumArray(o, 'requestedPermissions', PERMISSION_NAMES, LIMITS.permissions, CODE),
  };
}
