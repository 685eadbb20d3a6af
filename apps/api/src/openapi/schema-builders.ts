import type { SchemaObject, ReferenceObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Small builders for the schemas of answer fields (OpenAPI 3.0: `nullable`). */
export type Schema = SchemaObject | ReferenceObject;

/** A component schema by name, or the one of an answer class (its name). */
export const ref = (to: string | Function): ReferenceObject => ({ $ref: `#/components/schemas/${typeof to === 'string' ? to : to.name}` });
export const str = (description?: string, extra: SchemaObject = {}): SchemaObject => ({ type: 'string', ...(description ? { description } : {}), ...extra });
export const num = (description?: string, extra: SchemaObject = {}): SchemaObject => ({ type: 'number', ...(description ? { description } : {}), ...extra });
export const int = (description?: string, extra: SchemaObject = {}): SchemaObject => ({ type: 'integer', ...(description ? { description } : {}), ...extra });
export const bool = (description?: string): SchemaObject => ({ type: 'boolean', ...(description ? { description } : {}) });
export const dateTime = (description?: string): SchemaObject => str(description, { format: 'date-time' });
export const uuid = (description?: string): SchemaObject => str(description, { format: 'uuid' });
export const oneOfValues = (values: readonly string[], description?: string): SchemaObject => str(description, { enum: [...values] });
export const arr = (items: Schema, description?: string): SchemaObject => ({ type: 'array', items, ...(description ? { description } : {}) });
/** A literal `true` (OpenAPI 3.0 has no `const`). */
export const alwaysTrue = (description?: string): SchemaObject => ({ type: 'boolean', enum: [true], ...(description ? { description } : {}) });
/** Any JSON object (free-form keys). */
export const anyObject = (description?: string): SchemaObject => ({ type: 'object', additionalProperties: true, ...(description ? { description } : {}) });
/** An object whose values all have one schema (category -> score, …). */
export const mapOf = (values: Schema, description?: string): SchemaObject => ({
  type: 'object',
  additionalProperties: values,
  ...(description ? { description } : {}),
});

/** `null` allowed. A $ref cannot carry `nullable` in 3.0, so it is wrapped in allOf. */
export function nullable(s: Schema): SchemaObject {
  return '$ref' in s ? { allOf: [s], nullable: true } : { ...s, nullable: true };
}
