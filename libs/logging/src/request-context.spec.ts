import { acceptRequestId, currentRequestId, withRequestId } from './request-context';

describe('request context', () => {
  it('keeps the request id through awaits and timers, and only inside its run', async () => {
    expect(currentRequestId()).toBeUndefined();
    const seen = await withRequestId('req-1', async () => {
      await new Promise((r) => setTimeout(r, 1));
      return currentRequestId();
    });
    expect(seen).toBe('req-1');
    expect(currentRequestId()).toBeUndefined();
    expect(withRequestId(null, () => currentRequestId())).toBeUndefined();
  });

  it('accepts plain ids and replaces anything else', () => {
    expect(acceptRequestId('abc-123_x.y:z')).toBe('abc-123_x.y:z');
    for (const bad of [undefined, '', 'a b', 'x'.repeat(129), 'line\nbreak', ['a'], 'é']) {
      expect(acceptRequestId(bad)).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
