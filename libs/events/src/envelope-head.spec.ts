import { envelope } from './envelope';
import { envelopeHead } from './envelope-head';

/** What JSON.parse says, when both keys are top-level strings. */
function parsedHead(json: string) {
  const o = JSON.parse(json);
  return typeof o?.type === 'string' && typeof o?.tenantId === 'string' ? { type: o.type, tenantId: o.tenantId } : null;
}

describe('envelopeHead', () => {
  it('reads the type and tenant of an envelope as written, as JSON.parse does', () => {
    const e = envelope('decision.created', 2, 'tenant-7', 'd1', { decisionId: 'd1', nested: { tenantId: 'other', type: 'x' } });
    const json = JSON.stringify(e);
    expect(envelopeHead(json)).toEqual({ type: 'decision.created', tenantId: 'tenant-7' });
    expect(envelopeHead(JSON.stringify(e, null, 2))).toEqual({ type: 'decision.created', tenantId: 'tenant-7' });
  });

  it('skips nested values, whatever they hold, to the top-level keys', () => {
    const tricky = {
      data: { tenantId: 'nested', list: [{ type: 'nested' }, '"}]{', 'a\\"b', 1.5e-3, true, null], s: '{"tenantId":"x"}' },
      id: 'e1',
      version: -2,
      ok: false,
      none: null,
      type: 'webhook.created',
      tenantId: 't1',
    };
    expect(envelopeHead(JSON.stringify(tricky))).toEqual({ type: 'webhook.created', tenantId: 't1' });
  });

  it('decodes escaped keys and values', () => {
    expect(envelopeHead('{"t\\u0079pe":"a\\"b","tenantId":"caf\\u00e9\\n"}')).toEqual({ type: 'a"b', tenantId: 'café\n' });
  });

  it('answers null, so the caller parses, for anything else', () => {
    for (const text of [
      '',
      '5',
      '"type"',
      '[{"type":"a","tenantId":"b"}]',
      '{"type":"a"}', // no tenant
      '{"type":1,"tenantId":"b"}', // not a string
      '{"type":"a","tenantId":null}',
      '{"type":"a","tenantId":"b', // cut short
      '{"type":"a" "tenantId":"b"}', // no comma
      '{type:"a",tenantId:"b"}',
      '{"data":{"x":[1,2}, "type":"a","tenantId":"b"}', // unbalanced
    ]) {
      expect({ text, head: envelopeHead(text) }).toEqual({ text, head: null });
    }
  });

  it('agrees with JSON.parse on generated envelopes, in any key order', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pick = <T>(xs: T[]) => xs[rand(xs.length)];
    const scalar = () => pick<unknown>(['x', 'with "quote"', 'back\\slash', '}{][', 'ü', 0, -1.25, 1e21, true, false, null]);
    const value = (depth: number): unknown => {
      if (depth > 2 || rand(3) === 0) return scalar();
      if (rand(2) === 0) return Array.from({ length: rand(4) }, () => value(depth + 1));
      const o: Record<string, unknown> = {};
      for (let k = rand(4); k > 0; k--) o[pick(['type', 'tenantId', 'a', 'b"c'])] = value(depth + 1);
      return o;
    };
    let read = 0;
    for (let n = 0; n < 2000; n++) {
      const entries: [string, unknown][] = [
        ['id', `e${n}`],
        ['data', value(0)],
        ['key', scalar()],
      ];
      if (rand(10) > 0) entries.push(['type', rand(10) > 0 ? `t.${n}` : scalar()]);
      if (rand(10) > 0) entries.push(['tenantId', rand(10) > 0 ? `tenant-${rand(5)}` : scalar()]);
      entries.sort(() => rand(3) - 1);
      const json = JSON.stringify(Object.fromEntries(entries), null, rand(2) === 0 ? undefined : 1);
      const head = envelopeHead(json);
      expect({ json, head }).toEqual({ json, head: parsedHead(json) });
      if (head) read++;
    }
    expect(read).toBeGreaterThan(1000);
  });
});
