import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError, invalid } from '@cds/errors';
import { compileDto } from '@cds/validation';
import { flattenValidationErrors } from './validation-errors';

/** class-validator DTOs; a failure is a 422 naming every bad field. Values are
 * never coerced between types: `"5"` is not a number. */
export function validationPipe(): ValidationPipe {
  return new CompiledValidationPipe({
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    forbidUnknownValues: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => invalid('VALIDATION_ERROR', 'Invalid request parameters', flattenValidationErrors(errors).join('; ')),
  });
}

/**
 * The ValidationPipe with a fast way in: a body or query its DTO's compiled check accepts
 * (libs/validation compiled-validation.ts) is answered without class-transformer and
 * class-validator; anything else, every invalid value included, takes the full pipe, so
 * the errors are the same. Only for the options of validationPipe() above: the compiled
 * check models no groups, whitelist or implicit conversion.
 */
export class CompiledValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const dto = metadata.metatype;
    if ((metadata.type === 'body' || metadata.type === 'query') && dto && this.toValidate(metadata)) {
      const accepted = compileDto(dto as new () => object)?.accept(value);
      if (accepted !== undefined) return accepted;
    }
    return super.transform(value, metadata);
  }
}

/** A JSON body must be an object: an array, a string or nothing is a 400. Runs
 * before the DTO validation. */
@Injectable()
export class ObjectBodyPipe implements PipeTransform {
  transform(value: unknown, meta: ArgumentMetadata): unknown {
    if (meta.type !== 'body') return value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new DomainError('bad_request', 'INVALID_BODY', 'Malformed request body', 'the body must be a JSON object');
    }
    return value;
  }
}
