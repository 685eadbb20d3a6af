import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError, invalid } from '@cds/errors';
import { flattenValidationErrors } from './validation-errors';

/** class-validator DTOs; a failure is a 422 naming every bad field. Values are
 * never coerced between types: `"5"` is not a number. */
export function validationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    forbidUnknownValues: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => invalid('VALIDATION_ERROR', 'Invalid request parameters', flattenValidationErrors(errors).join('; ')),
  });
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
