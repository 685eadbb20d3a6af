import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { decisionCreatedV1ToV2, DECISION_STORED_VERSION, encodeEvent, envelope } from '@cds/events';
import { scheduled } from '../webhook-pending.fixtures';
import { encode, V1 } from './encoded-events.fixtures';
import { SqliteReadModels } from './sqlite-read-models.adapter';

const decision = (offset: number, tenantId: string, id: string) =>
  encode('decisions', offset, envelope('decision.created', 1, tenantId, id, { ...V1, decisionId: id, requestId: `r-${id}` }));

/** The models' writer thread, to stop it as a crash would. */
const writerThreadOf = (rm: SqliteReadModels) => (rm as unknown as { writer: { thread: { worker: { terminate(): Promise<number> } } } | null }).writer;

describe('SqliteReadModels.applyEncoded (the projection writer thread)', () => {
  let dir: string;
  let rm: SqliteReadModels;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-writer-'));
    rm = SqliteReadModels.open(dir);
  });
  afterEach(async () => {
    await rm.close();
  });

  it('writes on its thread what this connection then reads, advancing the positions only after the commit', async () => {
    const waiting = rm.waitFor([{ topic: 'decisions', partition: 0, offset: 1 }], 10_000);
    const parked = await rm.applyEncoded([
      decision(0, 't1', 'd1'),
      decision(1, 't2', 'd2'),
      encode('webhooks', 0, scheduled('t1', 'dl1', '2026-01-01T00:00:00.000Z')),
    ]);
    expect(parked).toEqual([]);
    await expect(waiting).resolves.toBe(true);
    // lifted to v2 on the thread, read here through the served connection
    expect(await rm.getDecision('t1', 'd1')).toMatchObject({ decisionId: 'd1', tenantId: 't1', signals: { local: V1.signals } });
    expect(await rm.getDecision('t1', 'd2')).toBeNull(); // another tenant's
    expect((await rm.findDecisionByRequestId('t2', 'r-d2'))?.decisionId).toBe('d2');
    expect(await rm.getDelivery('t1', 'dl1')).toMatchObject({ deliveryId: 'dl1', state: 'pending' });
    expect(Object.fromEntries(rm.appliedNextOffsets())).toEqual({ 'decisions:0': 2, 'webhooks:0': 1 });

    // replayed: changes nothing
    await rm.applyEncoded([decision(0, 't1', 'd1')]);
    expect(await rm.listDecisions('t1', { limit: 10, offset: 0 })).toHaveLength(1);
  });

  it('stores a one-part decision once, from its v3 event, and reads it back as it was made', async () => {
    const made = envelope(
      'decision.created',
      2,
      't1',
      'd5',
      decisionCreatedV1ToV2({
        ...V1,
        decisionId: 'd5',
        requestId: 'r-d5',
        categories: [{ category: 'hate', score: 0.9, threshold: 0.7, triggered: true }],
        action: 'block',
        safe: false,
        flagged: true,
      }),
    );
    const json = encodeEvent(made);
    expect(JSON.parse(json).version).toBe(DECISION_STORED_VERSION);
    expect(await rm.applyEncoded([{ topic: 'decisions', partition: 0, offset: 0, json }])).toEqual([]);
    const doc = { ...made.data, tenantId: 't1', timestamp: made.occurredAt };
    for (const read of [
      await rm.getDecision('t1', 'd5'),
      await rm.findDecisionByRequestId('t1', 'r-d5'),
      (await rm.listDecisions('t1', { limit: 5, offset: 0 }))[0],
    ]) {
      expect(read).toEqual(doc);
    }
    // the row holds the part once; the queries on its own fields see them
    const generation = fs.readFileSync(path.join(dir, 'CURRENT'), 'utf8').trim();
    const db = new Database(path.join(dir, `${generation}.sqlite`), { readonly: true });
    try {
      const stored = (db.prepare('SELECT body FROM decisions').get() as { body: string }).body;
      // cut out of the event as the log holds it, not made again
      expect(stored).toBe(JSON.stringify(JSON.parse(json).data));
      const body = JSON.parse(stored);
      expect(body.parts[0]).not.toHaveProperty('signals');
      expect(body.categories).toEqual(doc.categories);
    } finally {
      db.close();
    }
    expect(await rm.listDecisions('t1', { limit: 5, offset: 0, category: 'hate', action: 'block', userId: 'u1' })).toEqual([doc]);
    expect(await rm.listDecisions('t1', { limit: 5, offset: 0, category: 'violence' })).toEqual([]);
  });

  it('skips what it cannot read and says so, applying the rest and its position', async () => {
    const parked = await rm.applyEncoded([
      decision(0, 't1', 'd1'),
      encode('decisions', 1, '{"id": "x"'),
      encode('decisions', 2, JSON.stringify({ ...envelope('decision.created', 1, 't1', 'd9', V1), type: 'decision.renamed' })),
    ]);
    expect(parked).toHaveLength(2);
    expect(parked[0]).toMatch(/^parked decisions\/0@1: not a JSON envelope/);
    expect(parked[1]).toMatch(/^parked decisions\/0@2 \(decision\.renamed\): unknown event type/);
    expect(await rm.getDecision('t1', 'd1')).not.toBeNull();
    expect(rm.appliedNextOffsets().get('decisions:0')).toBe(1);
  });

  it('commits the positions with the rows: a reopened generation resumes where the thread stopped', async () => {
    await rm.applyEncoded([decision(0, 't1', 'd1'), decision(1, 't1', 'd2')]);
    await rm.close();
    rm = SqliteReadModels.open(dir);
    expect(rm.appliedNextOffsets().get('decisions:0')).toBe(2);
    expect((await rm.listDecisions('t1', { limit: 10, offset: 0 })).map((d) => d.decisionId).sort()).toEqual(['d1', 'd2']);
  });

  it('fails the batch of a thread that dies, and applies the retried batch on a fresh thread', async () => {
    await rm.applyEncoded([decision(0, 't1', 'd1')]);
    await rm.close();
    rm = SqliteReadModels.open(dir);
    // The first batch starts the thread: it is still pending when the thread is stopped,
    // since the thread has not even loaded its code (a batch sent to a running thread
    // could commit before the stop lands).
    const lost = rm.applyEncoded([decision(1, 't1', 'd2')]);
    const first = writerThreadOf(rm)!;
    await first.thread.worker.terminate();
    await expect(lost).rejects.toThrow(/projection writer thread exited/);
    expect(rm.appliedNextOffsets().get('decisions:0')).toBe(1);

    await rm.applyEncoded([decision(1, 't1', 'd2')]);
    expect(writerThreadOf(rm)).not.toBe(first);
    expect(await rm.getDecision('t1', 'd2')).not.toBeNull();
    expect(rm.appliedNextOffsets().get('decisions:0')).toBe(2);
  });

  it('lets the batch in progress commit when closed, and takes no batch after', async () => {
    const applying = rm.applyEncoded([decision(0, 't1', 'd1')]);
    await rm.close();
    await expect(applying).resolves.toEqual([]);
    await expect(rm.applyEncoded([decision(1, 't1', 'd2')])).rejects.toThrow(/closed/);
    const reopened = SqliteReadModels.open(dir);
    try {
      expect(await reopened.getDecision('t1', 'd1')).not.toBeNull();
    } finally {
      await reopened.close();
    }
    rm = SqliteReadModels.open(dir); // for afterEach
  });

  it('refuses a generation being bulk loaded (a rebuild writes rows)', async () => {
    const bulk = SqliteReadModels.createGeneration(dir);
    try {
      await expect(bulk.applyEncoded([decision(0, 't1', 'd1')])).rejects.toThrow(/bulk loaded/);
    } finally {
      await bulk.close();
    }
  });
});
