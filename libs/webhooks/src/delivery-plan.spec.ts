import { failedTooLong, subscribersOf } from './delivery-plan';

describe('subscribersOf', () => {
  const hooks = [
    { webhookId: 'a', enabled: true, events: ['decision.created'], createdAt: '2026-01-01T00:00:00.000Z' },
    { webhookId: 'b', enabled: false, events: ['decision.created'], createdAt: '2026-01-01T00:00:00.000Z' },
    { webhookId: 'c', enabled: true, events: ['decision.blocked'], createdAt: '2026-01-01T00:00:00.000Z' },
    { webhookId: 'd', enabled: true, events: ['decision.created'], createdAt: '2026-02-01T00:00:00.000Z' },
  ];

  it('keeps enabled webhooks subscribed to the type and registered before the event', () => {
    expect(subscribersOf(hooks, 'decision.created', '2026-01-15T00:00:00.000Z').map((w) => w.webhookId)).toEqual(['a']);
    expect(subscribersOf(hooks, 'decision.created', '2026-03-01T00:00:00.000Z').map((w) => w.webhookId)).toEqual(['a', 'd']);
    expect(subscribersOf(hooks, 'decision.blocked', '2026-03-01T00:00:00.000Z').map((w) => w.webhookId)).toEqual(['c']);
  });
});

describe('failedTooLong', () => {
  const now = new Date('2026-01-04T00:00:00.000Z');
  it('is true once the webhook has failed continuously for the period', () => {
    expect(failedTooLong(null, now, 1000)).toBe(false);
    expect(failedTooLong('2026-01-01T00:00:00.000Z', now, 3 * 86_400_000)).toBe(true);
    expect(failedTooLong('2026-01-01T00:00:01.000Z', now, 3 * 86_400_000)).toBe(false);
  });
});
