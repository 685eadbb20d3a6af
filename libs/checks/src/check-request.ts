import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** Policy ids: caller-chosen, 1-128 characters. */
export const POLICY_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
export const POLICY_ID_MESSAGE = 'policyId must be 1-128 letters, digits, dot, dash or underscore, starting with a letter or digit';

export const CONTENT_TYPES = ['text', 'image', 'video'] as const;

export class CheckRequestDto {
  @IsString() @IsNotEmpty()
  content!: string;

  @IsString() @Matches(POLICY_ID_PATTERN, { message: POLICY_ID_MESSAGE })
  policyId!: string;

  @IsOptional() @IsIn(CONTENT_TYPES, { message: `contentType must be one of ${CONTENT_TYPES.join(', ')}` })
  contentType?: (typeof CONTENT_TYPES)[number];

  @IsOptional() @IsString() @MaxLength(16)
  language?: string;

  @IsOptional() @IsObject()
  metadata?: Record<string, unknown>;

  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(255)
  requestId?: string;
}

/** The spec's Check decision. */
export interface CheckDecision {
  safe: boolean;
  flagged: boolean;
  action: string;
  categories: { category: string; score: number; threshold: number; triggered: boolean }[];
  decisionId: string;
  provider: string;
  latency: number;
  cost: number;
}
