import { Allow, IsOptional } from 'class-validator';
import { JSONSchema, targetConstructorToSchema } from 'class-validator-jsonschema';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ref, Schema } from './schema-builders';

/**
 * The decorators of the answer classes (and of the guardrail bodies, which the guardrail
 * engine validates itself): each field states its schema beside its TypeScript type, and
 * the document is generated from them by class-validator-jsonschema, as for the request
 * DTOs (openapi.ts). `Allow`/`IsOptional` register the field with class-validator, which is
 * what makes the generator see it, and say whether it is required.
 */
type Options = Parameters<typeof targetConstructorToSchema>[1];
const INLINE = 'x-inline-class';

const components = new Map<string, Function>();

/** A class whose schema is a component of the document, named as the class. */
export function Named(description?: string, extra: SchemaObject = {}): ClassDecorator {
  return (target) => {
    if (components.has(target.name) && components.get(target.name) !== target) throw new Error(`two answer classes named ${target.name}`);
    components.set(target.name, target);
    if (description || Object.keys(extra).length) JSONSchema({ ...extra, ...(description ? { description } : {}) } as never)(target);
  };
}

/** The names of the answer classes loaded (the document's components besides the request DTOs). */
export const answerNames = (): ReadonlySet<string> => new Set(components.keys());

/** A field always present (null only if its schema says `nullable`). */
export const Field = (schema: Schema) => field(Allow(), schema);

/** A field sometimes absent. */
export const OptionalField = (schema: Schema) => field(IsOptional(), schema);

const field =
  (rule: PropertyDecorator, schema: Schema): PropertyDecorator =>
  (target, key) => {
    rule(target, key);
    JSONSchema((_, options) => resolveSchema(schema, options) as never)(target, key as string);
  };

/** A class's schema written in place (no component of its own), for a shape only one field has. */
export const inline = (cls: Function, description?: string): SchemaObject => ({ [INLINE]: cls, ...(description ? { description } : {}) }) as SchemaObject;

/** The schema of a class that adds fields to another answer: allOf the other and its own fields. */
export function Extends(base: Function): ClassDecorator {
  return (target) => {
    JSONSchema((own, options) => {
      const inherited = Object.keys(targetConstructorToSchema(base, options).properties ?? {});
      const fields = Object.entries(own.properties ?? {}).filter(([name]) => !inherited.includes(name));
      const required = (own.required ?? []).filter((name) => !inherited.includes(name));
      return { allOf: [ref(base), { type: 'object', ...(required.length ? { required } : {}), properties: Object.fromEntries(fields) }] } as never;
    })(target);
  };
}

/** The field's schema with each inline(class) replaced by that class's schema. */
export function resolveSchema(schema: unknown, options: Options): unknown {
  if (Array.isArray(schema)) return schema.map((s) => resolveSchema(s, options));
  if (schema === null || typeof schema !== 'object') return schema;
  const { [INLINE]: cls, ...rest } = schema as Record<string, unknown>;
  const own = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, resolveSchema(v, options)]));
  if (typeof cls !== 'function') return own;
  const { type, properties, required, ...more } = targetConstructorToSchema(cls, options) as SchemaObject;
  return { type, ...own, ...more, ...(required?.length ? { required } : {}), properties: resolveSchema(properties, options) };
}
