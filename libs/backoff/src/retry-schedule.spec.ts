import { DomainError } from '@cds/errors';
import { DEFAULT_RETRY_SCHEDULE, nextAttemptAt, parseRetrySchedule } from './retry-schedule';

const S = 1_000;
const M = 60 * S;
const H = 60 * M;

describe('parseRetrySchedule', () => {
  it('reads the default schedule', () => {
    expect(DEFAULT_RETRY_SCHEDULE).toEqual([0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H]);
  });

  it.each([
    ['0', [0]],
    ['0ms', [0]],
    ['250ms', [250]],
    ['5s', [5 * S]],
    ['2m', [2 * M]],
    ['3h', [3 * H]],
    ['1d', [24 * H]],
    ['7d', [7 * 24 * H]],
    [' 0 , 10ms ,20ms ', [0, 10, 20]],
    ['5s,0', [5 * S, 0]],
  ])('reads %j', (spec, delays) => {
    expect(parseRetrySchedule(spec)).toEqual(delays);
  });

  it.each([
    ['', /entry 1 is empty/],
    ['0,,5s', /entry 2 is empty/],
    ['0,5s,', /entry 3 is empty/],
    ['-5s', /cannot be negative/],
    ['5x', '("5x") is not a delay'],
    ['5 s', '("5 s") is not a delay'],
    ['1.5h', '("1.5h") is not a delay'],
    ['5S', '("5S") is not a delay'],
    ['five', '("five") is not a delay'],
    ['500', '("500") has no unit; write 500s or 500ms'],
    ['8d', /longer than 7 days/],
    ['999999999h', /longer than 7 days/],
    [Array(51).fill('1s').join(','), /51 entries; at most 50/],
  ])('refuses %j', (spec, problem: string | RegExp) => {
    expect(() => parseRetrySchedule(spec)).toThrow(problem);
  });

  it('fails with a 422-kind domain error with a stable code', () => {
    expect(() => parseRetrySchedule('5x')).toThrow(expect.objectContaining({ kind: 'invalid', code: 'INVALID_RETRY_SCHEDULE' }));
    expect(() => parseRetrySchedule('5x')).toThrow(DomainError);
  });

  it('returns a schedule that cannot be altered', () => {
    expect(Object.isFrozen(parseRetrySchedule('0,5s'))).toBe(true);
  });
});

describe('nextAttemptAt', () => {
  const eventAt = new Date('2025-01-01T00:00:00.000Z');

  it('schedules each attempt after the previous one by the matching delay', () => {
    expect(nextAttemptAt(DEFAULT_RETRY_SCHEDULE, 0, eventAt)).toEqual(eventAt);
    expect(nextAttemptAt(DEFAULT_RETRY_SCHEDULE, 1, eventAt)).toEqual(new Date('2025-01-01T00:00:05.000Z'));
    expect(nextAttemptAt(DEFAULT_RETRY_SCHEDULE, 2, new Date('2025-01-01T00:00:07.000Z'))).toEqual(new Date('2025-01-01T00:05:07.000Z'));
    expect(nextAttemptAt(DEFAULT_RETRY_SCHEDULE, 7, eventAt)).toEqual(new Date('2025-01-01T10:00:00.000Z'));
  });

  it('returns null once every attempt of the schedule was made', () => {
    expect(nextAttemptAt(DEFAULT_RETRY_SCHEDULE, 8, eventAt)).toBeNull();
    expect(nextAttemptAt([0], 1, eventAt)).toBeNull();
  });

  it('refuses a negative or fractional attempt count', () => {
    expect(() => nextAttemptAt(DEFAULT_RETRY_SCHEDULE, -1, eventAt)).toThrow(RangeError);
    expect(() => nextAttemptAt(DEFAULT_RETRY_SCHEDULE, 1.5, eventAt)).toThrow(RangeError);
  });
});
