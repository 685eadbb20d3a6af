import { IsMetadata, OptionalLanguage, OptionalRequestId } from '@cds/validation';
import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, Matches } from 'class-validator';

import { POLICY_ID_MESSAGE, POLICY_ID_PATTERN } from '@cds/policy';
import type { Action, CategoryResult } from '@cds/events';

export { POLICY_ID_PATTERN, POLICY_ID_MESSAGE };

export const CONTENT_TYPES = ['text', 'image', 'video'] as const;

export class CheckRequestDto {
  @IsString()
  @IsNotEmpty()
  content!: string;

  @IsString()
  @Matches(POLICY_ID_PATTERN, { message: POLICY_ID_MESSAGE })
  policyId!: string;

  @IsOptional()
  @IsIn(CONTENT_TYPES, { message: `contentType must be one of ${CONTENT_TYPES.join(', ')}` })
  contentType?: (typeof CONTENT_TYPES)[number];

  @OptionalLanguage()
  language?: string;

  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;

  @OptionalRequestId()
  requestId?: string;
}

/** The spec's Check decision. */
export interface CheckDecision {
  safe: boolean;
  flagged: boolean;
  action: Action;
  categories: CategoryResult[];
  decisionId: string;
  provider: string;
  latency: number;
  cost: number;
}
