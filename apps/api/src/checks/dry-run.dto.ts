import { IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { POLICY_ID_MESSAGE, POLICY_ID_PATTERN } from '@cds/checks';
import { POLICY_LIMITS } from '@cds/policy';

/** What validateScores (@cds/policy) accepts, for the OpenAPI document: 422 INVALID_SCORES otherwise. */
const SCORE_MAP = JSONSchema({
  additionalProperties: { type: 'number', minimum: 0, maximum: 1 },
  maxProperties: POLICY_LIMITS.maxScoreEntries,
  description: 'name -> score between 0 and 1 (names like category names)',
});

export class DryRunRequestDto {
  @IsOptional()
  @IsString()
  @Matches(POLICY_ID_PATTERN, { message: POLICY_ID_MESSAGE })
  policyId?: string;

  @IsOptional()
  @IsObject()
  @SCORE_MAP
  mockScores?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  @SCORE_MAP
  mockSignals?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  @MaxLength(1024 * 1024)
  policy?: string;
}
