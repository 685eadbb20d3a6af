import { IsMetadata, OptionalLanguage } from '@cds/validation';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { POLICY_ID_MESSAGE, POLICY_ID_PATTERN } from '@cds/policy';
import { MAX_URL_LENGTH } from '../webhooks/webhooks.dto';

export class ExtractionStrategyDto {
  /** Seconds between sampled frames (interval mode). */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.1)
  @Max(3600)
  frameInterval?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  maxFrames?: number;

  @IsOptional()
  @IsIn(['interval', 'scenes'], { message: 'mode must be one of interval, scenes' })
  mode?: 'interval' | 'scenes';

  @IsOptional()
  @IsBoolean()
  stopOnBlock?: boolean;
}

/** What both video endpoints take besides the video itself. */
export class VideoOptionsDto {
  @IsString()
  @Matches(POLICY_ID_PATTERN, { message: POLICY_ID_MESSAGE })
  policyId!: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_URL_LENGTH)
  webhookUrl?: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ExtractionStrategyDto)
  extractionStrategy?: ExtractionStrategyDto;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(24 * 3600)
  maxDurationSeconds?: number;

  @OptionalLanguage()
  language?: string;

  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}

export class VideoCheckDto extends VideoOptionsDto {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_URL_LENGTH)
  videoUrl!: string;
}
