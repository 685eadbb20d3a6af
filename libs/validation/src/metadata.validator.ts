import { ValidateBy, ValidationOptions } from 'class-validator';

/** What `metadata` may hold: free-form, within bounds a decision can carry. */
export const METADATA_LIMITS = Object.freeze({ maxDepth: 8, maxKeys: 256, maxBytes: 16 * 1024 });

/** Why a metadata value is refused, or null when it is fine. Iterative: no stack to blow. */
export function metadataProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object';
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 1 }];
  let keys = 0;
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v === 'number' && !Number.isFinite(v)) return 'must hold finite numbers only';
    if (typeof v !== 'object' || v === null) continue;
    if (depth > METADATA_LIMITS.maxDepth) return `must not nest deeper than ${METADATA_LIMITS.maxDepth} levels`;
    const entries = Array.isArray(v) ? v : Object.keys(v).map((k) => (v as Record<string, unknown>)[k]);
    if (!Array.isArray(v)) keys += entries.length;
    if (keys > METADATA_LIMITS.maxKeys) return `must not hold more than ${METADATA_LIMITS.maxKeys} keys`;
    for (const child of entries) stack.push({ v: child, depth: depth + 1 });
  }
  if (Buffer.byteLength(JSON.stringify(value)) > METADATA_LIMITS.maxBytes) return `must not be larger than ${METADATA_LIMITS.maxBytes} bytes as JSON`;
  return null;
}

/** `metadata`: an object within METADATA_LIMITS (depth, keys, size, finite numbers). */
export const IsMetadata = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isMetadata',
      validator: {
        validate: (value: unknown) => metadataProblem(value) === null,
        defaultMessage: (args) => `${args?.property} ${metadataProblem(args?.value) ?? 'is invalid'}`,
      },
    },
    options,
  );
