import type { EncodedEvent } from '@cds/event-log';
import type { ElasticsearchGenerationLoad } from './es-generation-load';
import { ElasticsearchReadModels } from './elasticsearch-read-models.adapter';
import { DOC_TYPES, indexName } from './es-index-layout';
import { decision, deletePrefix, ES_URL, indicesOf, openRm, QUIET, uniquePrefix } from './es-test-kit';

/** The generations port on Elasticsearch (a real node). */

const prefixes: string[] = [];
const closing: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const c of closing) await c.close();
  for (const p of prefixes) await deletePrefix(p);
});

async function served(): Promise<{ prefix: string; rm: ElasticsearchReadModels }> {
  const prefix = uniquePrefix();
  prefixes.push(prefix);
  const rm = await openRm(prefix);
  closing.push(rm);
  await rm.applyBatch([{ topic: 'decisions', partition: 0, offset: 0, event: decision('t', 'old') }]);
  return { prefix, rm };
}

async function load(prefix: string): Promise<ElasticsearchGenerationLoad> {
  const l = await ElasticsearchReadModels.createGenerationLoad({ node: ES_URL, indexPrefix: prefix, logger: QUIET });
  closing.push(l);
  return l;
}

const encoded = (offset: number, json: string): EncodedEvent => ({ topic: 'decisions', partition: 0, offset, json });

describe('ElasticsearchGenerationLoad (real node)', () => {
  it('writes events as the log holds them into an unserved generation, reporting those it parks', async () => {
    const { prefix, rm } = await served();
    const fresh = await load(prefix);
    const parked = await fresh.apply([encoded(0, JSON.stringify(decision('t', 'new'))), encoded(1, '{"id": "x"')]);
    expect(parked).toHaveLength(1);
    expect(parked[0]).toContain('decisions/0@1');
    await expect(fresh.isServed()).resolves.toBe(false);
    expect(await rm.getDecision('t', 'new')).toBeNull(); // the served generation is untouched

    await fresh.finishLoad();
    await fresh.promote();
    await expect(fresh.isServed()).resolves.toBe(true);
    expect(await rm.getDecision('t', 'new')).not.toBeNull(); // through the aliases
    expect(await rm.getDecision('t', 'old')).toBeNull();
    expect(await indicesOf(prefix)).toEqual(DOC_TYPES.map((t) => indexName(prefix, t, fresh.generation)).sort());
  });

  it('asks for its promotion: pending until taken, and withdrawn only by one side', async () => {
    const { prefix, rm } = await served();
    const fresh = await load(prefix);
    await expect(fresh.promotionPending()).resolves.toBe(false);
    await expect(fresh.requestPromotion()).resolves.toBe(true);
    await expect(fresh.promotionPending()).resolves.toBe(true);
    // The live projector's side (LiveGenerations): it sees the request and takes it.
    const request = await rm.pendingPromotion();
    expect(request?.generation).toBe(fresh.generation);
    await expect(request!.claim()).resolves.toBe(true);
    await expect(fresh.promotionPending()).resolves.toBe(false);
    await expect(fresh.withdrawPromotion()).resolves.toBe(false); // taken: too late to withdraw

    await fresh.requestPromotion();
    const seen = await rm.pendingPromotion();
    await expect(fresh.withdrawPromotion()).resolves.toBe(true);
    await expect(seen!.claim()).resolves.toBe(false); // withdrawn: nothing left to take
  });

  it('is opened by the projector that takes its promotion, from its stored positions, and promoted from there', async () => {
    const { prefix, rm } = await served();
    const fresh = await load(prefix);
    expect(fresh.appliedNextOffsets()).toEqual(new Map());
    await fresh.apply([encoded(0, JSON.stringify(decision('t', 'new'))), encoded(1, JSON.stringify(decision('t', 'newer')))]);

    const taken = await rm.openGeneration(fresh.generation);
    closing.push(taken);
    expect(taken.generation).toBe(fresh.generation);
    expect(taken.appliedNextOffsets()).toEqual(new Map([['decisions:0', 2]]));
    await expect(taken.isServed()).resolves.toBe(false);
    await taken.apply([encoded(2, JSON.stringify(decision('t', 'newest')))]);
    await taken.promote();
    await expect(fresh.isServed()).resolves.toBe(true);
    expect(await rm.getDecision('t', 'newest')).not.toBeNull(); // through the aliases
  });

  it('discards an unserved generation and never the served one', async () => {
    const { prefix, rm } = await served();
    const fresh = await load(prefix);
    await fresh.apply([encoded(0, JSON.stringify(decision('t', 'new')))]);
    await fresh.discard();
    expect(await indicesOf(prefix)).toEqual(DOC_TYPES.map((t) => indexName(prefix, t, rm.generation())).sort());
    expect(await rm.getDecision('t', 'old')).not.toBeNull();

    const promoted = await load(prefix);
    await promoted.promote();
    await promoted.discard();
    expect(await indicesOf(prefix)).toEqual(DOC_TYPES.map((t) => indexName(prefix, t, promoted.generation)).sort());
  });
});
