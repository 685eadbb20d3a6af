import { IsMetadata, OptionalLanguage, OptionalRequestId } from '@cds/validation';
import { Type } from 'class-transformer';
import { IsArray, IsNotEmpty, IsNumber, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { Action, CategoryResult } from '@cds/events';
import { POLICY_ID_MESSAGE, POLICY_ID_PATTERN } from './check-request';

/** Most images in one multimodal check (the spec's limit). */
export const MAX_MULTIMODAL_IMAGES = 10;

export class MultimodalContextDto {
  @OptionalLanguage()
  language?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  useCase?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  userId?: string;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  userReputation?: number;

  @IsOptional()
  @IsString()
  @MaxLength(35)
  locale?: string;
}

export class MultimodalRequestDto {
  @IsOptional()
  @IsString()
  text?: string;

  /** URLs, data URIs or raw base64; the count is checked by the handler (422 TOO_MANY_IMAGES). */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  images?: string[];

  @IsOptional()
  @IsString()
  video?: string;

  @IsString()
  @Matches(POLICY_ID_PATTERN, { message: POLICY_ID_MESSAGE })
  policyId!: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => MultimodalContextDto)
  context?: MultimodalContextDto;

  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;

  @OptionalRequestId()
  requestId?: string;
}

/** One item of the answer (the spec's Multi-modal result). */
export interface MultimodalItemResult {
  contentType: 'text' | 'image' | 'video';
  contentRef?: string;
  safe: boolean;
  flagged: boolean;
  action: Action;
  categories: CategoryResult[];
}

export interface MultimodalDecision {
  decisionId: string;
  safe: boolean;
  flagged: boolean;
  action: Action;
  results: MultimodalItemResult[];
  totalLatency: number;
  totalCost: number;
}
