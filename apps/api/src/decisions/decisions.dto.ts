import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { NAME_PATTERN } from '@cds/policy';
import { POLICY_ID_MESSAGE, POLICY_ID_PATTERN } from '@cds/checks';
import { ListLimit, OptionalDateTime, queryInt } from '../http/query.validators';

const ACTIONS = ['allow', 'warn', 'flag', 'block'] as const;

export class ListDecisionsQueryDto {
  @ListLimit()
  limit?: number;

  @IsOptional()
  @Transform(queryInt)
  @IsInt({ message: 'offset must be an integer' })
  @Min(0)
  @Max(10_000_000)
  offset?: number;

  @IsOptional()
  @IsIn(ACTIONS, { message: `action must be one of ${ACTIONS.join(', ')}` })
  action?: (typeof ACTIONS)[number];

  @IsOptional()
  @IsString()
  @Matches(POLICY_ID_PATTERN, { message: POLICY_ID_MESSAGE })
  policyId?: string;

  @OptionalDateTime()
  from?: string;

  @OptionalDateTime()
  to?: string;

  /** Decisions whose `metadata.userId` is this value (numbers compare as text). */
  @IsOptional()
  @IsString({ message: 'userId must be a string' })
  @Length(1, 256, { message: 'userId must be 1-256 characters' })
  userId?: string;

  /** Decisions in which this category triggered. */
  @IsOptional()
  @IsString({ message: 'category must be a string' })
  @Matches(NAME_PATTERN, { message: 'category must be a category name: lowercase letters, digits, _ or -, starting with a letter, at most 64 characters' })
  category?: string;

  /** Full text over the content. */
  @IsOptional()
  @IsString({ message: 'q must be a string' })
  @Length(1, 500, { message: 'q must be 1-500 characters' })
  q?: string;
}

export class ReplayDto {
  @IsString()
  @Matches(POLICY_ID_PATTERN, { message: POLICY_ID_MESSAGE })
  policyId!: string;
}
