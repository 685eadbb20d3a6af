/**
 * Delivery retry schedules, written as in WEBHOOK_RETRY_SCHEDULE: `0,5s,5m,30m,2h,5h,10h,10h`.
 * Entry i is the wait before attempt i+1, counted from the previous attempt (from the
 * event itself for the first), so the default makes 8 attempts over about 28 hours.
 * Every entry needs a unit (ms, s, m, h, d) except `0`: a bare `500` is ambiguous.
 */
import { invalid } from '@cds/errors';

/** Delays in milliseconds; its length is the number of attempts. */
export type RetrySchedule = readonly number[];

export const DEFAULT_RETRY_SCHEDULE_SPEC = '0,5s,5m,30m,2h,5h,10h,10h';
export const MAX_RETRY_ATTEMPTS = 50;
export const MAX_RETRY_DELAY_MS = 7 * 24 * 3_600_000;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const ENTRY = /^(\d{1,9})(ms|s|m|h|d)?$/;

export function parseRetrySchedule(spec: string): RetrySchedule {
  const entries = spec.split(',').map((entry) => entry.trim());
  if (entries.length > MAX_RETRY_ATTEMPTS) {
    throw scheduleError(spec, `it has ${entries.length} entries; at most ${MAX_RETRY_ATTEMPTS} attempts are allowed`);
  }
  return Object.freeze(entries.map((entry, i) => parseDelay(spec, entry, i + 1)));
}

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE_SPEC);

/**
 * When to make the next attempt, or null once the schedule is exhausted.
 * `previousAt` is the time of the last attempt, or of the event when none was made yet.
 */
export function nextAttemptAt(schedule: RetrySchedule, attemptsMade: number, previousAt: Date): Date | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) throw new RangeError(`attemptsMade must be a whole number, got ${attemptsMade}`);
  if (attemptsMade >= schedule.length) return null;
  return new Date(previousAt.getTime() + schedule[attemptsMade]);
}

function parseDelay(spec: string, entry: string, position: number): number {
  if (entry === '') throw scheduleError(spec, `entry ${position} is empty`);
  const match = ENTRY.exec(entry);
  if (!match) {
    const hint = entry.startsWith('-') ? 'delays cannot be negative' : 'write a whole number with a unit: ms, s, m, h or d';
    throw scheduleError(spec, `entry ${position} ("${entry}") is not a delay; ${hint}`);
  }
  const [, amount, unit] = match;
  if (unit === undefined && Number(amount) !== 0) {
    throw scheduleError(spec, `entry ${position} ("${entry}") has no unit; write ${entry}s or ${entry}ms`);
  }
  const ms = Number(amount) * UNIT_MS[unit ?? 'ms'];
  if (ms > MAX_RETRY_DELAY_MS) throw scheduleError(spec, `entry ${position} ("${entry}") is longer than 7 days`);
  return ms;
}

function scheduleError(spec: string, problem: string) {
  return invalid('INVALID_RETRY_SCHEDULE', `Invalid retry schedule "${spec}": ${problem}`, problem);
}
