import { AccessFields, AccessLog } from './access-log';

const request = (i: number): AccessFields => ({
  method: 'POST',
  route: '/v1/check',
  status: 200,
  ms: 1.5,
  requestId: `r${i}`,
  tenant: 'default',
  keyId: 'k1',
});

describe('AccessLog', () => {
  it('writes one line per request with the route pattern, status, time, request id, tenant and key id, and nothing else', () => {
    const lines: Record<string, unknown>[] = [];
    new AccessLog({ enabled: true, maxPerSecond: 10, write: (l) => lines.push(l) }).record(request(1));
    expect(lines).toEqual([{ msg: 'request', method: 'POST', route: '/v1/check', status: 200, ms: 1.5, requestId: 'r1', tenant: 'default', keyId: 'k1' }]);
  });

  it('writes nothing when off', () => {
    const lines: unknown[] = [];
    const log = new AccessLog({ enabled: false, maxPerSecond: 10, write: (l) => lines.push(l) });
    log.record(request(1));
    expect(lines).toEqual([]);
    expect(log.enabled).toBe(false);
  });

  it('writes at most maxPerSecond lines a second and says how many it left out with the next second', () => {
    let now = 10_000;
    const lines: Record<string, unknown>[] = [];
    const log = new AccessLog({ enabled: true, maxPerSecond: 3, write: (l) => lines.push(l), now: () => now });
    for (let i = 0; i < 10; i++) log.record(request(i));
    expect(lines.map((l) => l.requestId)).toEqual(['r0', 'r1', 'r2']);
    now += 999;
    log.record(request(10));
    expect(lines).toHaveLength(3);
    now += 1;
    log.record(request(11));
    expect(lines.slice(3)).toEqual([{ msg: 'access lines left out', dropped: 8, maxPerSecond: 3 }, expect.objectContaining({ requestId: 'r11' })]);
    now += 5000;
    log.record(request(12));
    expect(lines.slice(5).map((l) => l.requestId)).toEqual(['r12']);
  });
});
