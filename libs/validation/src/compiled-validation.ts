import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/**
 * A DTO's class-validator rules, gathered once per class into plain checks, so a valid
 * body is accepted without class-transformer's copy and class-validator's executor (about
 * a tenth of a check's CPU on the hot path).
 *
 * It only ever says "valid": a body it does not accept goes through the full
 * ValidationPipe, which builds the error answer, so 400/422 bodies are class-validator's
 * own. It must therefore never accept what class-validator refuses; a class whose rules it
 * does not model (nested validation, class-transformer decorators, groups, async
 * constraints) gets no compiled check, and its bodies always take the full path.
 */
export interface CompiledDto<T extends object> {
  /** The DTO instance the full pipe would return for `value`, or undefined if it does not accept it here. */
  accept(value: unknown): T | undefined;
}

/** class-transformer's decorator storage: the package publishes no typed entry for it. */
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: object };

type Check = (object: Record<string, unknown>) => boolean;

/** One property's rules: its conditions (IsOptional, ValidateIf), then its constraints. */
interface PropertyRules {
  property: string;
  conditions: ((object: object, value: unknown) => boolean)[];
  constraints: Check[];
}

const compiled = new WeakMap<Function, CompiledDto<object> | null>();

/** The compiled check of `dto`, or null when its rules are not all modelled here. */
export function compileDto<T extends object>(dto: new () => T): CompiledDto<T> | null {
  if (!compiled.has(dto)) compiled.set(dto, build(dto));
  return compiled.get(dto) as CompiledDto<T> | null;
}

function build<T extends object>(dto: new () => T): CompiledDto<T> | null {
  if (hasTransformerMetadata(dto)) return null;
  const storage = getMetadataStorage();
  // The call the executor makes for a pipe without groups.
  const metadatas = storage.getTargetValidationMetadatas(dto, '', false, false, undefined);
  // No rules at all is an "unknown value" error under forbidUnknownValues: the full path says so.
  if (metadatas.length === 0) return null;
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const m of metadatas) {
    if (m.groups?.length || m.always) return null;
    if (m.type !== ValidationTypes.CUSTOM_VALIDATION && m.type !== ValidationTypes.CONDITIONAL_VALIDATION) return null;
    byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
  }
  const rules: PropertyRules[] = [];
  for (const [property, ms] of byProperty) {
    const rule: PropertyRules = { property, conditions: [], constraints: [] };
    for (const m of ms) {
      if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) {
        rule.conditions.push(m.constraints[0] as (object: object, value: unknown) => boolean);
        continue;
      }
      for (const c of storage.getTargetValidatorConstraints(m.constraintCls)) {
        if (c.async) return null;
        rule.constraints.push(constraintCheck(dto.name, m, c.instance as { validate(value: unknown, args: ValidationArguments): unknown }));
      }
    }
    rules.push(rule);
  }
  return {
    accept(value: unknown): T | undefined {
      if (!isPlainRecord(value) || !copiesAsIs(value, dto.prototype)) return undefined;
      const entity = Object.assign(new dto(), value) as T & Record<string, unknown>;
      for (const rule of rules) {
        const v = entity[rule.property];
        if (!rule.conditions.every((condition) => condition(entity, v))) continue;
        for (const check of rule.constraints) if (!check(entity)) return undefined;
      }
      return entity;
    },
  };
}

function constraintCheck(targetName: string, m: ValidationMetadata, instance: { validate(value: unknown, args: ValidationArguments): unknown }): Check {
  return (object) => {
    const value = object[m.propertyName];
    if (m.validateIf && !m.validateIf(object, value)) return true;
    const args: ValidationArguments = { targetName, property: m.propertyName, object, value, constraints: m.constraints };
    if (m.each && (Array.isArray(value) || value instanceof Set || value instanceof Map)) {
      const items = value instanceof Map ? [...value.values()] : [...value];
      return items.every((item) => settled(instance.validate(item, args)));
    }
    return settled(instance.validate(value, args));
  };
}

/** A constraint that answers with a promise is not decided here: the full path awaits it. */
function settled(result: unknown): boolean {
  return !(result instanceof Promise) && Boolean(result);
}

/**
 * Whether class-transformer's copy of `value` would hold exactly what `value` holds, so
 * the value itself may stand in for it. Its copy leaves out every key that names something
 * the target already has through its prototype (`toString`, a DTO's method or getter), at
 * any depth; and it has no JSON to copy in a Buffer or other class instance. Walked
 * without recursion: the body's depth is bounded by the JSON parser, not here.
 */
function copiesAsIs(value: Record<string, unknown>, proto: object): boolean {
  for (const key in value) {
    if (key in proto) return false;
    if (!isJsonValue(value[key])) return false;
  }
  const stack: unknown[] = Object.values(value);
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
      continue;
    }
    if (!isPlainRecord(v)) return false;
    for (const key in v) {
      if (key in Object.prototype) return false;
      stack.push(v[key]);
    }
  }
  return true;
}

function hasTransformerMetadata(dto: Function): boolean {
  const s = defaultMetadataStorage as unknown as Record<string, Map<Function, unknown>>;
  let target: Function | null = dto;
  while (target && target !== Function.prototype) {
    for (const map of ['_typeMetadatas', '_transformMetadatas', '_exposeMetadatas', '_excludeMetadatas']) {
      if (!(s[map] instanceof Map)) return true; // a class-transformer whose storage is not the one known here
      if (s[map].has(target)) return true;
    }
    target = Object.getPrototypeOf(target) as Function | null;
  }
  return false;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** What a parsed JSON body or a parsed query string holds; anything else (a Buffer of a
 * multipart part, …) takes the full path, which has rules of its own for it. */
function isJsonValue(value: unknown): boolean {
  if (value === null) return true;
  const t = typeof value;
  if (t === 'string' || t === 'number' || t === 'boolean') return true;
  if (Array.isArray(value)) return true;
  return isPlainRecord(value);
}
