import { ScoreMap } from '@cds/events';
import { invalid } from '@cds/errors';
import { setOwn } from './own-record';
import { NAME_PATTERN, POLICY_LIMITS } from './policy.types';

/**
 * Checks a caller-given map of name -> score (dry-run mockScores / mockSignals) and
 * returns a clean copy: at most 256 entries, names like category names, values
 * finite numbers in [0, 1]. Throws INVALID_SCORES naming the field and entry.
 */
export function validateScores(input: unknown, field = 'scores'): ScoreMap {
  if (typeof input !== 'object' || input === null || Object.prototype.toString.call(input) !== '[object Object]') {
    throw invalid('INVALID_SCORES', `${field} must be an object of name -> number between 0 and 1 (got ${describe(input)})`, field);
  }
  const names = Object.keys(input);
  if (names.length > POLICY_LIMITS.maxScoreEntries) {
    throw invalid('INVALID_SCORES', `${field} has ${names.length} entries; at most ${POLICY_LIMITS.maxScoreEntries} are allowed`, field);
  }
  const out: ScoreMap = {};
  for (const name of names) {
    if (!NAME_PATTERN.test(name)) {
      throw invalid(
        'INVALID_SCORES',
        `${field}: ${shorten(name)} is not a valid name (lowercase letters, digits, "_" or "-", starting with a letter, at most 64 characters)`,
        field,
      );
    }
    const value = (input as Record<string, unknown>)[name];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
      throw invalid('INVALID_SCORES', `${field}.${name} must be a number between 0 and 1 (got ${describe(value)})`, `${field}.${name}`);
    }
    setOwn(out, name, value === 0 ? 0 : value);
  }
  return out;
}

function shorten(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'number':
      return String(value);
    case 'string':
      return shorten(value);
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
