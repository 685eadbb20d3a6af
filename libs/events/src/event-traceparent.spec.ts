import { decisionDataText } from './event-codec';
import { envelope } from './envelope';
import { upcast, validateEvent } from './event-schema';

const revoked = () => envelope('key.revoked', 1, 'default', 'k1', { keyId: 'k1', revokedBy: 'admin' });
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('the envelope’s optional traceparent', () => {
  it('is valid absent (every event written before it) and as a W3C traceparent', () => {
    expect(() => validateEvent(revoked())).not.toThrow();
    expect(() => validateEvent({ ...revoked(), traceparent: TRACEPARENT })).not.toThrow();
  });

  it('refuses anything else there', () => {
    for (const bad of ['', 'abc', 42, `${TRACEPARENT} `, '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01']) {
      expect(() => validateEvent({ ...revoked(), traceparent: bad })).toThrow(/traceparent/);
    }
  });

  it('is kept as it is when an event is read back (no new version: nothing to upcast)', () => {
    const e = { ...revoked(), traceparent: TRACEPARENT };
    expect(upcast(JSON.parse(JSON.stringify(e)))).toEqual(e);
  });

  it('makes a decision event take the general path of the stored-document shortcut, not a wrong cut', () => {
    const e = {
      id: 'e1',
      type: 'decision.created',
      version: 2,
      occurredAt: 'now',
      tenantId: 't',
      key: 'd1',
      data: { decisionId: 'd1' },
      traceparent: TRACEPARENT,
    };
    expect(decisionDataText(JSON.stringify(e), e)).toBeNull();
  });
});
