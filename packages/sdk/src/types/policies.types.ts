/** Policies and the impact report (README "Policies", "Policy impact").
 * The answers are the service's OpenAPI schemas (openapi.generated.ts, `npm run sdk:types`). */
import type { components } from './openapi.generated';

type Schemas = components['schemas'];

/** `builtIn`: the built-in `default` until a policy of that id overrides it. */
export type Policy = Schemas['Policy'];

export type PolicyCategory = Policy['categories'][string];

/** `yamlContent`: the candidate policy; `from`, `to`: inclusive ISO 8601 bounds on the decisions' timestamp;
 * `limit`: default 5 000, at most 9 000. */
export type PolicyImpactRequest = Schemas['PolicyImpactDto'];

/** `categories`: what drove the change, most frequent first; `sampleDecisionIds`: up to 5, newest first. */
export type ActionChange = Schemas['ImpactChange'];

/** `changes`: most frequent first. */
export type PolicyImpact = Schemas['ImpactReport'];
