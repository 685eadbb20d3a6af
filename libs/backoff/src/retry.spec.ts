import { retry } from './retry';

const failing = (failures: number, err = new Error('away')) => {
  let calls = 0;
  const attempt = jest.fn(async (n: number) => {
    calls++;
    if (calls <= failures) throw err;
    return `ok at ${n}`;
  });
  return attempt;
};
const noWait = async () => undefined;

describe('retry', () => {
  it('retries until the operation succeeds, waiting the backoff between attempts', async () => {
    const waits: number[] = [];
    const failures: string[] = [];
    const result = await retry(
      failing(3),
      { baseMs: 100, maxMs: 250 },
      {
        sleep: async (ms) => void waits.push(ms),
        onFailure: (err, n, delay) => failures.push(`${n}: ${(err as Error).message}, next in ${delay}`),
      },
    );
    expect(result).toBe('ok at 4');
    expect(waits).toEqual([100, 200, 250]);
    expect(failures).toEqual(['1: away, next in 100', '2: away, next in 200', '3: away, next in 250']);
  });

  it('throws the last failure at maxAttempts', async () => {
    const attempt = failing(5, new Error('still away'));
    await expect(retry(attempt, { baseMs: 1, maxMs: 1, maxAttempts: 3 }, { sleep: noWait })).rejects.toThrow('still away');
    expect(attempt).toHaveBeenCalledTimes(3);
  });

  it('throws at once a failure that is not retriable', async () => {
    const attempt = failing(5, new Error('no such topic'));
    await expect(retry(attempt, { baseMs: 1, maxMs: 1, retriable: (e) => (e as Error).message !== 'no such topic' }, { sleep: noWait })).rejects.toThrow(
      'no such topic',
    );
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('stops retrying once stopped, with the failure', async () => {
    let stopped = false;
    const attempt = failing(5);
    const run = retry(attempt, { baseMs: 1, maxMs: 1 }, { stopped: () => stopped, sleep: async () => void (stopped = true) });
    await expect(run).rejects.toThrow('away');
    expect(attempt).toHaveBeenCalledTimes(2);
  });

  it('ends with what onFailure throws (a deadline)', async () => {
    const attempt = failing(5);
    const deadline = (_e: unknown, n: number) => {
      if (n >= 2) throw new Error('unreachable for too long');
    };
    await expect(retry(attempt, { baseMs: 1, maxMs: 1 }, { sleep: noWait, onFailure: deadline })).rejects.toThrow('unreachable for too long');
    expect(attempt).toHaveBeenCalledTimes(2);
  });
});
