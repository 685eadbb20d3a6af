import { acceptRequestId } from './request-context';

describe('request ids', () => {
  it('accepts plain ids and replaces anything else', () => {
    expect(acceptRequestId('abc-123_x.y:z')).toBe('abc-123_x.y:z');
    for (const bad of [undefined, '', 'a b', 'x'.repeat(129), 'line\nbreak', ['a'], 'é']) {
      expect(acceptRequestId(bad)).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
