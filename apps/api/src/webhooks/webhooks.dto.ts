import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsBoolean, IsOptional, IsString, MaxLength, MinLength, ValidateIf, ValidationOptions } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { ListLimit } from '../http/query.validators';

export const MAX_URL_LENGTH = 2048;

/** Event names are checked against the spec's table by WebhooksService (422 INVALID_WEBHOOK_EVENT):
 * the OpenAPI document lists them (its WebhookEventType, webhooks.answers.ts). */
const EVENT_NAMES = JSONSchema({ items: { $ref: '#/components/schemas/WebhookEventType' } });

export class CreateWebhookDto {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_URL_LENGTH)
  url!: string;

  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @EVENT_NAMES
  events!: string[];

  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}

/** Optional, but not nullable: absent leaves the field as it is, null is refused (422).
 * (`@IsOptional()` would let null through.) */
const Absent = (o?: ValidationOptions) => ValidateIf((_o, value) => value !== undefined, o);

/** A change of any of the fields. `description: null` clears the description. */
export class UpdateWebhookDto {
  @Absent()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_URL_LENGTH)
  url?: string;

  @Absent()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @EVENT_NAMES
  events?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(500)
  @JSONSchema({ nullable: true })
  description?: string | null;

  @Absent()
  @IsBoolean()
  enabled?: boolean;
}

export class TestWebhookDto {
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  eventType!: string;
}

export class ListDeliveriesQueryDto {
  @ListLimit()
  limit?: number;
}
