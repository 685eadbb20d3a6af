import { IsMetadata } from '@cds/validation';
import { Type } from 'class-transformer';
import { ArrayNotEmpty, IsArray, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { POLICY_ID_MESSAGE, POLICY_ID_PATTERN } from '@cds/checks';
import { MAX_URL_LENGTH } from '../webhooks/webhooks.dto';

/** Content, contentType and metadata are checked per item by the check path: a bad item
 * gets its own error in the results and does not fail the batch. */
export class BatchItemDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  id!: string;

  @IsString()
  content!: string;

  @IsOptional()
  @IsString()
  contentType?: string;

  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}

export class BatchCheckDto {
  @IsString()
  @Matches(POLICY_ID_PATTERN, { message: POLICY_ID_MESSAGE })
  policyId!: string;

  @IsArray()
  @ArrayNotEmpty()
  @ValidateNested({ each: true })
  @Type(() => BatchItemDto)
  items!: BatchItemDto[];
}

export class AsyncBatchCheckDto extends BatchCheckDto {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_URL_LENGTH)
  webhookUrl!: string;
}
