import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * Rules that several request bodies give the same field, declared once. Each registers
 * exactly the class-validator metadata its decorators would if stacked above the property,
 * in the same order, so validation, error bodies and the OpenAPI document do not change.
 */

/** The decorators as if written one above the other in this order (TypeScript applies the lowest first). */
export function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (let i = decorators.length - 1; i >= 0; i--) decorators[i](target, key);
  };
}

/** `requestId`: optional; a non-empty string of at most 255 characters (what idempotency keys on). */
export const OptionalRequestId = (): PropertyDecorator => stacked(IsOptional(), IsString(), IsNotEmpty(), MaxLength(255));

/** `language`: optional; a language code of at most 16 characters. */
export const OptionalLanguage = (): PropertyDecorator => stacked(IsOptional(), IsString(), MaxLength(16));
