import { DomainError, invalid } from '@cds/errors';

/** Stable error codes; the api maps the `invalid` kind to 422. */
export const GUARDRAIL_ERROR_CODES = {
  invalidRequest: 'INVALID_GUARDRAIL_REQUEST',
  unknownValue: 'UNKNOWN_GUARDRAIL_VALUE',
  invalidPolicy: 'INVALID_GUARDRAIL_POLICY',
} as const;

export const LIMITS = {
  idLength: 256,
  nameLength: 256,
  promptLength: 20_000,
  commandLength: 8_192,
  targetPathLength: 4_096,
  permissions: 64,
  policyListItems: 256,
  policyPathLength: 1_024,
  policyHostLength: 253,
  blockShellPatterns: 100,
  blockShellPatternLength: 256,
} as const;

export type JsonObject = Record<string, unknown>;

export function fail(code: string, message: string, details = ''): DomainError {
  return invalid(code, message, details);
}

export function asObject(x: unknown, code: string, what: string): JsonObject {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) throw fail(code, `${what} must be a JSON object`, `got ${describe(x)}`);
  return x as JsonObject;
}

export function describe(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  return typeof x === 'string' ? 'a string' : `a ${typeof x}`;
}

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export function readString(
  o: JsonObject,
  field: string,
  code: string,
  opts: { max: number; required?: boolean; allowNewlines?: boolean; label?: string },
): string {
  const label = opts.label ?? field;
  const v = o[field];
  if (v === undefined || v === null) {
    if (opts.required) throw fail(code, `${label} is required`, `field=${label}`);
    return '';
  }
  if (typeof v !== 'string') throw fail(code, `${label} must be a string`, `field=${label}; got ${describe(v)}`);
  if (v.length > opts.max) throw fail(code, `${label} is too long (${v.length} characters, at most ${opts.max})`, `field=${label}; max=${opts.max}`);
  if (opts.required && v.trim() === '') throw fail(code, `${label} must not be empty`, `field=${label}`);
  if (v.includes('\0') || (!opts.allowNewlines && /[\r\n]/.test(v)) || CONTROL.test(v.replace(/[\t\r\n]/g, ''))) {
    throw fail(code, `${label} contains control characters`, `field=${label}`);
  }
  return v;
}

export function readBoolean(o: JsonObject, field: string, code: string, fallback: boolean): boolean {
  const v = o[field];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw fail(code, `${field} must be a boolean`, `field=${field}; got ${describe(v)}`);
  return v;
}

export function readEnum<T extends string>(o: JsonObject, field: string, allowed: readonly T[], fallback: T | undefined, code: string): T {
  const v = o[field];
  if (v === undefined || v === null) {
    if (fallback === undefined) throw fail(code, `${field} is required`, `field=${field}; allowed=${allowed.join(', ')}`);
    return fallback;
  }
  if (typeof v !== 'string') throw fail(code, `${field} must be a string`, `field=${field}; got ${describe(v)}`);
  if (!allowed.includes(v as T)) {
    throw fail(GUARDRAIL_ERROR_CODES.unknownValue, `${field} "${clip(v)}" is not a known value`, `field=${field}; allowed=${allowed.join(', ')}`);
  }
  return v as T;
}

export function readEnumArray<T extends string>(o: JsonObject, field: string, allowed: readonly T[], max: number, code: string): T[] {
  const v = o[field];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw fail(code, `${field} must be an array of strings`, `field=${field}; got ${describe(v)}`);
  if (v.length > max) throw fail(code, `${field} has too many entries (${v.length}, at most ${max})`, `field=${field}; max=${max}`);
  return v.map((item, i) => {
    if (typeof item !== 'string') throw fail(code, `${field}[${i}] must be a string`, `field=${field}[${i}]; got ${describe(item)}`);
    if (!allowed.includes(item as T)) {
      throw fail(
        GUARDRAIL_ERROR_CODES.unknownValue,
        `${field}[${i}] "${clip(item)}" is not a known value`,
        `field=${field}[${i}]; allowed=${allowed.join(', ')}`,
      );
    }
    return item as T;
  });
}

export function clip(s: string): string {
  return s.length > 64 ? `${s.slice(0, 63)}\u2026` : s;
}
