import type { SchemaObject, ReferenceObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Small builders for the hand-written answer schemas (OpenAPI 3.0: `nullable`). */
export type Schema = SchemaObject | ReferenceObject;

export const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });
export const str = (description?: string, extra: SchemaObject = {}): SchemaObject => ({ type: 'string', ...(description ? { description } : {}), ...extra });
export const num = (description?: string, extra: SchemaObject = {}): SchemaObject => ({ type: 'number', ...(description ? { description } : {}), ...extra });
export const int = (description?: string, extra: SchemaObject = {}): SchemaObject => ({ type: 'integer', ...(description ? { description } : {}), ...extra });
export const bool = (description?: string): SchemaObject => ({ type: 'boolean', ...(description ? { description } : {}) });
export const dateTime = (description?: string): SchemaObject => str(description, { format: 'date-time' });
export const uuid = (description?: string): SchemaObject => str(description, { format: 'uuid' });
export const oneOfValues = (values: readonly string[], description?: string): SchemaObject => str(description, { enum: [...values] });
export const arr = (items: Schema, description?: string): SchemaObject => ({ type: 'array', items, ...(description ? { description } : {}) });
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

/** An object: `required` fields always present, `optional` ones sometimes. */
export function obj(required: Record<string, Schema>, optional: Record<string, Schema> = {}, description?: string): SchemaObject {
  const names = Object.keys(required);
  return {
    type: 'object',
    ...(description ? { description } : {}),
    ...(names.length ? { required: names } : {}),
    properties: { ...required, ...optional },
  };
}
