import { envelope } from './envelope';
import { upcast, validateEvent } from './event-schema';

describe('decision.created v1 -> v2', () => {
  const v1 = envelope('decision.created', 1, 't', 'd', {
    decisionId: 'd',
    requestId: null,
    content: 'hi',
    contentType: 'text',
    language: 'en',
    metadata: {},
    policyId: 'default',
    policyVersion: 0,
    provider: 'local',
    signals: { hate: 0.2 },
    categories: [{ category: 'hate', score: 0.2, threshold: 0.7, triggered: false }],
    action: 'allow',
    safe: true,
    flagged: false,
    latency: 1,
    cost: 0,
  });

  it('lifts the one provider signals to a per-provider map and one text part', () => {
    const e = upcast(v1);
    expect(e.version).toBe(2);
    if (e.type !== 'decision.created') throw new Error('type');
    expect(e.data.signals).toEqual({ local: { hate: 0.2 } });
    expect(e.data.parts).toEqual([
      {
        contentType: 'text',
        contentRef: null,
        signals: { local: { hate: 0.2 } },
        ocrText: null,
        media: null,
        categories: v1.data.categories,
        action: 'allow',
        safe: true,
        flagged: false,
      },
    ]);
  });

  it('refuses a v2 decision without parts or with flat signals', () => {
    const lifted = upcast(v1);
    expect(() => validateEvent({ ...lifted, data: { ...lifted.data, parts: [] } })).toThrow(/parts/);
    expect(() => validateEvent({ ...lifted, data: { ...lifted.data, signals: { hate: 0.2 } } })).toThrow(/signals/);
  });
});
