import { NAME_PATTERN } from '@cds/policy';
import { badResponse } from './provider-call.error';

/**
 * Readers of a provider's JSON answer: each returns the value in the shape the provider
 * documents or throws a bad_response naming the field, so a changed or broken answer is
 * a ProviderCallError, never a TypeError deep in an adapter.
 */
export function recordAt(provider: string, value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badResponse(provider, `${field} is not an object`);
  return value as Record<string, unknown>;
}

export function listAt(provider: string, value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw badResponse(provider, `${field} is not a list`);
  return value;
}

export function stringAt(provider: string, value: unknown, field: string): string {
  if (typeof value !== 'string') throw badResponse(provider, `${field} is not a string`);
  return value;
}

/** A probability: a finite number in [0, 1] (a hair outside, float noise, is clamped). */
export function probabilityAt(provider: string, value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < -1e-6 || value > 1 + 1e-6) {
    throw badResponse(provider, `${field} is not a score between 0 and 1`);
  }
  return Math.min(1, Math.max(0, value));
}

/**
 * A provider's category name as a signal name a policy can use (lowercase letters,
 * digits, `_`): `harassment/threatening` → `harassment_threatening`, `SelfHarm` →
 * `self_harm`. Undefined when nothing usable is left.
 */
export function signalNameOf(category: string): string | undefined {
  const name = category
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return NAME_PATTERN.test(name) ? name : undefined;
}

/** Cost in USD without float dust (3 × 0.00075 is not 0.0022500000000000003). */
export function roundCost(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}
