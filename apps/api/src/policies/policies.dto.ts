import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { POLICY_ID_MESSAGE, POLICY_ID_PATTERN } from '@cds/checks';
import { OptionalDateTime } from '../http/query.validators';

export class SavePolicyDto {
  @IsString()
  @Matches(POLICY_ID_PATTERN, { message: POLICY_ID_MESSAGE })
  policyId!: string;

  /** The size limit itself is the parser's (POLICY_TOO_LARGE); this only bounds memory. */
  @IsString()
  @MaxLength(1024 * 1024)
  yamlContent!: string;
}

/** Decisions a report replays at most: Elasticsearch pages a search up to 10 000 hits. */
export const IMPACT_MAX_LIMIT = 9000;
export const IMPACT_DEFAULT_LIMIT = 5000;

export class PolicyImpactDto {
  @IsString()
  @MaxLength(1024 * 1024)
  yamlContent!: string;

  @OptionalDateTime()
  from?: string;

  @OptionalDateTime()
  to?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(IMPACT_MAX_LIMIT)
  limit?: number;
}
