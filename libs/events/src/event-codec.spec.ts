import { CategoryResult } from './domain-events';
import { DecisionCreatedV2 } from './event-bodies';
import { envelope, EventEnvelope } from './envelope';
import { DECISION_STORED_VERSION, decodeDecisionDoc, encodeDecisionDoc, encodeEvent } from './event-codec';
import { EventSchemaError, liftEncodedOrPark, upcast } from './event-schema';

/** A decision of one part as a check makes it: the part holds the decision's own objects. */
function oneTextPart(): EventEnvelope<'decision.created', DecisionCreatedV2> {
  const signals = { local: { hate: 0.123456789, toxicity: 0.5 } };
  const categories: CategoryResult[] = [{ category: 'hate', score: 0.1235, threshold: 0.7, triggered: false }];
  return envelope('decision.created', 2, 't1', 'd1', {
    decisionId: 'd1',
    requestId: 'r1',
    content: 'a "quoted" text',
    contentType: 'text',
    language: 'en',
    metadata: { userId: 'u1' },
    policyId: 'default',
    policyVersion: 0,
    provider: 'local',
    signals,
    parts: [
      {
        contentType: 'text',
        contentRef: null,
        signals,
        ocrText: null,
        media: null,
        categories,
        action: 'allow',
        safe: true,
        flagged: false,
        routes: { hate: ['local'] },
        attempts: [{ provider: 'local', ok: true, ms: 1.5, model: 'ngram:x' }],
      },
    ],
    categories,
    action: 'allow',
    safe: true,
    flagged: false,
    latency: 2,
    cost: 0,
  });
}

const read = (json: string) => upcast(JSON.parse(json));

describe('encodeEvent / liftStoredForm', () => {
  it('stores a one-part decision once, as v3, and reads it back as the v2 it was, to its JSON', () => {
    const e = oneTextPart();
    const stored = encodeEvent(e);
    const raw = JSON.parse(stored);
    expect(raw.version).toBe(DECISION_STORED_VERSION);
    expect(Object.keys(raw.data.parts[0])).toEqual(['contentType', 'contentRef', 'ocrText', 'media', 'routes', 'attempts']);
    expect(stored.length).toBeLessThan(JSON.stringify(e).length);
    const back = read(stored);
    expect(back).toEqual(e);
    expect(JSON.stringify(back)).toBe(JSON.stringify(e));
  });

  it('reads a one-part image decision back the same', () => {
    const e = oneTextPart();
    const part = { ...e.data.parts[0], contentType: 'image' as const, contentRef: 'media:sha256:ab', ocrText: 'read', media: { width: 2, height: 2 } as never };
    const image = { ...e, data: { ...e.data, contentType: 'image' as const, parts: [part] } };
    expect(JSON.parse(encodeEvent(image)).version).toBe(3);
    expect(JSON.stringify(read(encodeEvent(image)))).toBe(JSON.stringify(image));
  });

  it('stores as is a decision whose part holds other values, or equal ones as other objects', () => {
    const e = oneTextPart();
    const cases = [
      { ...e.data.parts[0], action: 'block' as const },
      { ...e.data.parts[0], signals: { local: { ...e.data.signals.local } } },
      { ...e.data.parts[0], categories: [...e.data.categories] },
    ];
    for (const part of cases) {
      const other = { ...e, data: { ...e.data, parts: [part] } };
      expect(encodeEvent(other)).toBe(JSON.stringify(other));
      expect(read(encodeEvent(other))).toEqual(other);
    }
  });

  it('stores every other event as its JSON: several parts, other types, other versions', () => {
    const e = oneTextPart();
    const two = { ...e, data: { ...e.data, parts: [e.data.parts[0], e.data.parts[0]] } };
    const policy = envelope('policy.saved', 1, 't1', 'p', { policyId: 'p', name: 'p', version: 1, yamlContent: 'x', categories: {}, savedBy: 'k' });
    const v1 = { ...e, version: 1 };
    for (const other of [two, policy, v1]) expect(encodeEvent(other as EventEnvelope)).toBe(JSON.stringify(other));
  });

  it('parks a v3 decision whose part is malformed, and one from a later build', () => {
    const raw = JSON.parse(encodeEvent(oneTextPart()));
    const noParts = JSON.stringify({ ...raw, data: { ...raw.data, parts: [] } });
    const notAnObject = JSON.stringify({ ...raw, data: { ...raw.data, parts: ['x'] } });
    const later = JSON.stringify({ ...raw, version: 4 });
    for (const json of [noParts, notAnObject]) {
      expect(() => read(json)).toThrow(EventSchemaError);
      expect(liftEncodedOrPark(json, 'decisions/0@7')).toEqual({ parked: expect.stringMatching(/^parked decisions\/0@7 \(decision.created\): .*parts/) });
    }
    expect(() => read(later)).toThrow(/v4 is newer than this build understands \(v2\)/);
  });
});

describe('encodeDecisionDoc / decodeDecisionDoc', () => {
  /** A decision's document as the projection makes it from a lifted event. */
  const docOf = (e: EventEnvelope<'decision.created', DecisionCreatedV2>) => ({ ...e.data, tenantId: e.tenantId, timestamp: e.occurredAt });

  it('stores a one-part decision once, its own fields as they are, and reads it back to its JSON', () => {
    const doc = docOf(upcast(JSON.parse(encodeEvent(oneTextPart()))) as EventEnvelope<'decision.created', DecisionCreatedV2>);
    const stored = encodeDecisionDoc(doc);
    const raw = JSON.parse(stored);
    expect(raw.parts[0]).not.toHaveProperty('signals');
    expect(raw.categories).toEqual(doc.categories);
    expect(raw.signals).toEqual(doc.signals);
    expect(stored.length).toBeLessThan(JSON.stringify(doc).length);
    expect(JSON.stringify(decodeDecisionDoc(stored))).toBe(JSON.stringify(doc));
  });

  it('stores whole, and reads as it is, a document whose part holds other values, or of several parts', () => {
    const e = oneTextPart();
    const other = docOf({ ...e, data: { ...e.data, parts: [{ ...e.data.parts[0], action: 'block' }] } });
    const two = docOf({ ...e, data: { ...e.data, parts: [e.data.parts[0], e.data.parts[0]] } });
    for (const doc of [other, two]) {
      expect(encodeDecisionDoc(doc)).toBe(JSON.stringify(doc));
      expect(decodeDecisionDoc(encodeDecisionDoc(doc))).toEqual(doc);
    }
  });

  it('reads a document stored whole before this form', () => {
    const doc = docOf(oneTextPart());
    expect(decodeDecisionDoc(JSON.stringify(doc))).toEqual(doc);
  });
});
