import { IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { POLICY_ID_MESSAGE, POLICY_ID_PATTERN } from '@cds/checks';

export class DryRunRequestDto {
  @IsOptional()
  @IsString()
  @Matches(POLICY_ID_PATTERN, { message: POLICY_ID_MESSAGE })
  policyId?: string;

  @IsOptional()
  @IsObject()
  mockScores?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  mockSignals?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  @MaxLength(1024 * 1024)
  policy?: string;
}
