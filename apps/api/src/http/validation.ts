import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError, invalid } from '@cds/errors';

function flatten(errors: ValidationError[], parent = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const name = parent ? `${parent}.${e.property}` : e.property;
    for (const msg of Object.values(e.constraints ?? {})) out.push(msg.startsWith(e.property) ? `${name}${msg.slice(e.property.length)}` : `${name}: ${msg}`);
    if (e.children?.length) out.push(...flatten(e.children, name));
  }
  return out;
}

/** class-validator DTOs; a failure is a 422 naming every bad field. Values are
 * never coerced between types: `"5"` is not a number. */
export function validationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    forbidUnknownValues: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => invalid('VALIDATION_ERROR', 'Invalid request parameters', flatten(errors).join('; ')),
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
