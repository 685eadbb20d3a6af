import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { invalid } from '@cds/errors';
import { flattenValidationErrors } from '../http/validation-errors';
import { VideoOptionsDto } from './video.dto';

/** The multipart fields as the JSON endpoint's options (numbers and booleans from text,
 * `extractionStrategy` and `metadata` as JSON), validated the same way. */
export function uploadOptions(fields: Record<string, string>): VideoOptionsDto {
  const json = (name: string) => {
    if (fields[name] === undefined) return undefined;
    try {
      return JSON.parse(fields[name]);
    } catch {
      throw invalid('VALIDATION_ERROR', 'Invalid request parameters', `${name} must be JSON`);
    }
  };
  // Text that is not a number stays text, so the validation names the field.
  const num = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : Number.isFinite(Number(v)) ? Number(v) : v);
  const bool = (v: string | undefined) => (v === undefined ? undefined : v === 'true' ? true : v === 'false' ? false : v);
  const strategy = json('extractionStrategy') ?? {};
  if (fields.frameInterval !== undefined) strategy.frameInterval = num(fields.frameInterval);
  if (fields.maxFrames !== undefined) strategy.maxFrames = num(fields.maxFrames);
  if (fields.mode !== undefined) strategy.mode = fields.mode;
  if (fields.stopOnBlock !== undefined) strategy.stopOnBlock = bool(fields.stopOnBlock);
  const plain = {
    policyId: fields.policyId,
    webhookUrl: fields.webhookUrl,
    language: fields.language,
    metadata: json('metadata'),
    maxDurationSeconds: num(fields.maxDurationSeconds),
    extractionStrategy: Object.keys(strategy).length > 0 ? strategy : undefined,
  };
  const dto = plainToInstance(VideoOptionsDto, JSON.parse(JSON.stringify(plain)), { enableImplicitConversion: false });
  const errors = validateSync(dto, { forbidUnknownValues: true });
  if (errors.length > 0) throw invalid('VALIDATION_ERROR', 'Invalid request parameters', flattenValidationErrors(errors).join('; '));
  return dto;
}
