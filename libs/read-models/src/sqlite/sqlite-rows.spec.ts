import { decisionCreatedV1ToV2, DomainEvent, encodeDecisionDoc, encodeEvent, envelope, EventEnvelope, upcast } from '@cds/events';
import { DecisionDoc } from '../documents';
import { toDocWrites } from '../projection';
import { V1 } from './encoded-events.fixtures';
import { readDecisionRow, rowsOf } from './sqlite-rows';

/** A one-part decision as a check makes it (the part holds the decision's own objects). */
const made = (requestId?: string): EventEnvelope => {
  const e = envelope('decision.created', 2, 't1', 'd5', decisionCreatedV1ToV2({ ...V1, decisionId: 'd5', content: 'a "quoted" \u2028 text' }));
  return requestId === undefined ? e : { ...e, requestId };
};

/** The decision row of an event stored as `json`: its body and the columns it is read back with. */
function decisionRow(json: string) {
  const event = upcast(JSON.parse(json));
  const [row] = rowsOf({ topic: 'decisions', partition: 0, offset: 7, event }, json).rows;
  if (!('statement' in row) || row.statement !== 'insertDecision') throw new Error('not a decision row');
  const [, tenantId, , timestamp, , , , body] = row.args as string[];
  return { event, body, read: () => readDecisionRow({ tenant_id: tenantId, ts: timestamp, body }) };
}

/** The document the projection makes of the event. */
function docOf(event: DomainEvent): DecisionDoc {
  const [write] = toDocWrites(event);
  if (write?.kind !== 'decision') throw new Error('not a decision');
  return write.doc;
}

/** The same as JSON text (key order included). */
const docText = (event: DomainEvent) => JSON.stringify(docOf(event));

describe('rowsOf: a decision document cut out of its stored event', () => {
  it.each([
    ['v3, as encodeEvent stores it', encodeEvent(made())],
    ['v3 with the request id of its HTTP request', encodeEvent(made('req-"1"'))],
    ['v2, as a build before v3 stored it', JSON.stringify(made())],
    ['v2 with a request id', JSON.stringify(made('req-2'))],
  ])('%s: stores the event data as the log holds it, and reads back the document to its JSON', (_, json) => {
    const { event, body, read } = decisionRow(json);
    expect(body).toBe(JSON.stringify(JSON.parse(json).data));
    expect(json).toContain(`"data":${body}`);
    expect(JSON.stringify(read())).toBe(docText(event));
  });

  it.each([
    ['pretty-printed', JSON.stringify(made('r'), null, 1)],
    ['its keys in another order', JSON.stringify((({ data, ...rest }) => ({ data, ...rest }))(made()))],
    ['a key encodeEvent does not write', JSON.stringify({ ...made(), extra: { data: {} } })],
    ['a v1 decision, lifted to v2 on reading', JSON.stringify(envelope('decision.created', 1, 't1', 'd1', V1))],
  ])('makes the document again from an event stored otherwise (%s), and reads it back the same', (_, json) => {
    const { event, body, read } = decisionRow(json);
    expect(body).toBe(encodeDecisionDoc(docOf(event)));
    expect(JSON.stringify(read())).toBe(docText(event));
  });

  it('reads a document stored whole as it is, whatever the columns say', () => {
    const event = upcast(JSON.parse(encodeEvent(made())));
    expect(JSON.stringify(readDecisionRow({ tenant_id: 'other', ts: 'never', body: encodeDecisionDoc(docOf(event)) }))).toBe(docText(event));
  });
});
