import { PositionPoller } from './position-poller';

describe('PositionPoller', () => {
  it('resolves a waiter once the stored next offset passes its offset', async () => {
    let stored = 3;
    const poller = new PositionPoller(
      async () => new Map([['decisions:0', stored]]),
      () => false,
      5,
    );
    const waiting = poller.waitFor([{ topic: 'decisions', partition: 0, offset: 5 }], 1000);
    setTimeout(() => (stored = 6), 20);
    await expect(waiting).resolves.toBe(true);
  });

  it('does not poll again for an offset it has already seen applied, and says when a position moved', async () => {
    let polls = 0;
    let advances = 0;
    const poller = new PositionPoller(
      async () => (polls++, new Map([['decisions:0', 10]])),
      () => false,
      5,
      () => advances++,
    );
    await expect(poller.waitFor([{ topic: 'decisions', partition: 0, offset: 9 }], 1000)).resolves.toBe(true);
    expect(polls).toBe(1);
    await expect(poller.waitFor([{ topic: 'decisions', partition: 0, offset: 4 }], 1000)).resolves.toBe(true);
    expect(polls).toBe(1);
    // past what was seen: polled again
    await expect(poller.waitFor([{ topic: 'decisions', partition: 0, offset: 10 }], 50)).resolves.toBe(false);
    expect(polls).toBeGreaterThan(1);
    // the same stored position polled again is no news
    expect(advances).toBe(1);
  });
});
