import { decisionCreatedV1ToV2, envelope, upcast } from '@cds/events';
import type { EncodedEvent } from '@cds/event-log';
import { scheduled } from '../webhook-pending.fixtures';
import { encode, V1 } from './encoded-events.fixtures';
import { SqliteRowDecoders } from './sqlite-row-decoders';
import { rowsOf } from './sqlite-rows';

/** What the projector makes of the same events on its own thread (an event it cannot
 * read or lift is skipped). */
function expectedRows(events: EncodedEvent[]) {
  return events.flatMap((e) => {
    try {
      return [rowsOf({ topic: e.topic, partition: e.partition, offset: e.offset, event: upcast(JSON.parse(e.json)) }, e.json)];
    } catch {
      return [];
    }
  });
}

describe('SqliteRowDecoders (worker threads)', () => {
  let decoders: SqliteRowDecoders;
  beforeAll(() => {
    decoders = new SqliteRowDecoders(2);
  });
  afterAll(async () => {
    await decoders.close();
  });

  it('turns events into the rows the projector writes, and parks what it cannot read', async () => {
    const events = [
      encode('decisions', 0, envelope('decision.created', 1, 't1', 'd1', V1)),
      encode('decisions', 1, envelope('decision.created', 2, 't1', 'd2', decisionCreatedV1ToV2({ ...V1, decisionId: 'd2', action: 'block' }))),
      encode('decisions', 2, '{"id": "x", "type": "decision.created"'),
      encode('decisions', 3, '5'),
      encode('decisions', 4, JSON.stringify({ ...envelope('decision.created', 1, 't1', 'd9', V1), type: 'decision.renamed' })),
      encode('webhooks', 0, scheduled('t1', 'dl1', '2026-01-01T00:00:00.000Z')),
    ];
    const decoded = await decoders.decode(events);

    expect(decoded.rows).toEqual(expectedRows(events));
    expect(decoded.rows.map((r) => r.offset)).toEqual([0, 1, 0]);
    const [v1, v2, webhook] = decoded.rows;
    expect(v1.rows).toEqual([{ statement: 'insertDecision', args: ['d1', 't1', 'r1', expect.any(String), 'allow', 'default', 0, expect.any(String)] }]);
    const body = JSON.parse((v1.rows[0] as { args: string[] }).args[7]);
    // lifted to v2 on the thread: signals grouped by provider
    expect(body).toMatchObject({ decisionId: 'd1', tenantId: 't1', signals: { local: V1.signals }, metadata: { userId: 'u1' } });
    expect((v2.rows[0] as { args: unknown[] }).args[4]).toBe('block');
    expect(webhook.rows).toEqual([{ webhook: expect.objectContaining({ kind: 'delivery' }) }]);

    expect(decoded.parked).toHaveLength(3);
    expect(decoded.parked[0]).toMatch(/^parked decisions\/0@2: not a JSON envelope/);
    expect(decoded.parked[1]).toMatch(/^parked decisions\/0@3: not a JSON envelope \(not an object\)/);
    expect(decoded.parked[2]).toMatch(/^parked decisions\/0@4 \(decision\.renamed\): unknown event type/);
  });

  it('answers each of many concurrent jobs with its own events, across the threads', async () => {
    const jobs = Array.from({ length: 12 }, (_, j) =>
      Array.from({ length: 50 }, (_, i) => {
        const id = `d${j}-${i}`;
        return encode('decisions', j * 50 + i, envelope('decision.created', 1, `t${j % 3}`, id, { ...V1, decisionId: id, requestId: null }));
      }),
    );
    const decoded = await Promise.all(jobs.map((events) => decoders.decode(events)));
    decoded.forEach((d, j) => {
      expect(d.parked).toEqual([]);
      expect(d.rows).toEqual(expectedRows(jobs[j]));
    });
  });

  it('rejects the jobs of a thread that exits, and every job sent to it afterwards', async () => {
    const one = new SqliteRowDecoders(1);
    try {
      // sent before the thread has even loaded its code: still pending when it is stopped
      const pending = one.decode([encode('decisions', 0, envelope('decision.created', 1, 't1', 'd1', V1))]);
      await (one as unknown as { decoders: { worker: { terminate(): Promise<number> } }[] }).decoders[0].worker.terminate();
      await expect(pending).rejects.toThrow(/row decoder thread exited/);
      await expect(one.decode([])).rejects.toThrow(/row decoder thread exited/);
    } finally {
      await one.close();
    }
  });

  it('refuses work once closed', async () => {
    const closed = new SqliteRowDecoders(1);
    await closed.close();
    await expect(closed.decode([])).rejects.toThrow(/closed/);
  });

  it('refuses a thread count that is not a positive integer', () => {
    expect(() => new SqliteRowDecoders(0)).toThrow(RangeError);
    expect(() => new SqliteRowDecoders(1.5)).toThrow(RangeError);
  });
});
