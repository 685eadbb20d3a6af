import { DomainError } from '@cds/errors';
import { ElasticsearchReadModels } from './elasticsearch-read-models.adapter';
import { DOC_TYPES, indexName } from './es-index-layout';
import { at, decision, deletePrefix, ES_URL, indicesOf, openRm, QUIET, relayTo, uniquePrefix } from './es-test-kit';
import { openElasticsearchWithRetry } from './open-with-retry';

const opened: ElasticsearchReadModels[] = [];
const prefixes: string[] = [];
async function fresh(): Promise<{ prefix: string; open: (node?: string) => Promise<ElasticsearchReadModels> }> {
  const prefix = uniquePrefix();
  prefixes.push(prefix);
  return { prefix, open: async (node?: string) => track(await openRm(prefix, node)) };
}
const track = (rm: ElasticsearchReadModels) => (opened.push(rm), rm);

afterAll(async () => {
  for (const rm of opened) await rm.close();
  for (const p of prefixes) await deletePrefix(p);
});

const d = (topic: 'decisions', partition: number, offset: number) => ({ topic, partition, offset });

describe('ElasticsearchReadModels: positions across processes (real node)', () => {
  it('lets another instance wait for a position, on any partition, and read the documents then', async () => {
    const { open } = await fresh();
    const writer = await open();
    const reader = await open();
    const waiting = reader.waitFor([d('decisions', 0, 1), d('decisions', 2, 0)], 10_000);
    await writer.applyBatch([at('decisions', 0, decision('t', 'a'))]);
    await writer.applyBatch([at('decisions', 1, decision('t', 'b')), at('decisions', 0, decision('t', 'c'), 2)]);
    await expect(waiting).resolves.toBe(true);
    expect((await reader.listDecisions('t', { limit: 10, offset: 0 })).map((x) => x.decisionId).sort()).toEqual(['a', 'b', 'c']);
    await expect(reader.waitFor([d('decisions', 0, 2)], 50)).resolves.toBe(false);
    // Opened later, it finds the stored positions at once.
    await expect((await open()).waitFor([d('decisions', 0, 1)], 0)).resolves.toBe(true);
  });

  it('never moves a stored position back when an older batch is applied again', async () => {
    const { open } = await fresh();
    const stale = await open();
    const writer = await open();
    await writer.applyBatch([at('decisions', 0, decision('t', 'a')), at('decisions', 1, decision('t', 'b'))]);
    await stale.applyBatch([at('decisions', 0, decision('t', 'a'))]);
    await expect((await open()).waitFor([d('decisions', 0, 1)], 0)).resolves.toBe(true);
  });
});

describe('ElasticsearchReadModels: generations (real node)', () => {
  it('serves the old generation until promote, then the new one, and deletes the old', async () => {
    const { prefix, open } = await fresh();
    const served = await open();
    const oldGen = served.generation();
    await served.applyBatch([at('decisions', 0, decision('t', 'old'))]);

    const next = track(await ElasticsearchReadModels.createGeneration({ node: ES_URL, indexPrefix: prefix, logger: QUIET }));
    await next.applyBatch([at('decisions', 0, decision('t', 'new'))]);
    expect(await next.getDecision('t', 'new')).not.toBeNull();
    expect(await served.getDecision('t', 'new')).toBeNull();
    expect(await served.getDecision('t', 'old')).not.toBeNull();
    expect((await open()).generation()).toBe(oldGen);
    expect(await served.servedGeneration()).toBe(oldGen);

    await next.promote();
    expect(await served.servedGeneration()).toBe(next.generation());
    expect(await served.getDecision('t', 'new')).not.toBeNull(); // same instance, through the aliases
    expect(await served.getDecision('t', 'old')).toBeNull();
    expect((await open()).generation()).toBe(next.generation());
    // One index per document type (webhook, delivery and batch models included), all of the new generation.
    expect(await indicesOf(prefix)).toEqual(DOC_TYPES.map((t) => indexName(prefix, t, next.generation())).sort());
  });

  it("moves a writer onto the promoted generation, from that generation's stored positions", async () => {
    const { prefix, open } = await fresh();
    const writer = await open();
    const oldGen = writer.generation();
    await writer.applyBatch([at('decisions', 0, decision('t', 'a')), at('decisions', 1, decision('t', 'b'))]);
    const rebuilt = track(await ElasticsearchReadModels.createGeneration({ node: ES_URL, indexPrefix: prefix, logger: QUIET }));
    await rebuilt.applyBatch([at('decisions', 0, decision('t', 'a'))]); // the rebuild got this far
    await rebuilt.promote();
    // A batch in flight at the swap lands in the deleted generation (re-creating an index)...
    await writer.applyBatch([at('decisions', 2, decision('t', 'c'))]).catch(() => undefined);

    await writer.switchGeneration(rebuilt.generation());
    expect(writer.generation()).toBe(rebuilt.generation());
    // ...so the writer follows the log again: what the new generation holds is skipped, the rest applied.
    await writer.applyBatch([at('decisions', 0, decision('t', 'a')), at('decisions', 1, decision('t', 'b')), at('decisions', 2, decision('t', 'c'))]);
    const reader = await open();
    await expect(reader.waitFor([d('decisions', 0, 2)], 5_000)).resolves.toBe(true);
    expect((await reader.listDecisions('t', { limit: 10, offset: 0 })).map((x) => x.decisionId)).toEqual(['c', 'b', 'a']);
    expect((await indicesOf(prefix)).filter((i) => i.endsWith(oldGen))).toEqual([]);
  });

  it('bootstraps one generation when several processes open an empty prefix at once', async () => {
    const { prefix, open } = await fresh();
    const all = await Promise.all([open(), open(), open(), open()]);
    expect(new Set(all.map((rm) => rm.generation())).size).toBe(1);
    expect(await indicesOf(prefix)).toEqual(DOC_TYPES.map((t) => indexName(prefix, t, all[0].generation())).sort());
  });
});

describe('ElasticsearchReadModels: a node that goes away (real node behind a relay)', () => {
  it('reports unhealthy, answers queries with READ_MODELS_UNAVAILABLE, and ends waits at their timeout', async () => {
    const { open } = await fresh();
    const relay = await relayTo(ES_URL);
    const rm = await open(relay.url);
    await expect(rm.healthy()).resolves.toBe(true);
    await relay.cut();
    await expect(rm.healthy()).resolves.toBe(false);
    const failed = rm.getDecision('t', 'x');
    await expect(failed).rejects.toBeInstanceOf(DomainError);
    await expect(failed).rejects.toMatchObject({ kind: 'unavailable', code: 'READ_MODELS_UNAVAILABLE' });
    await expect(rm.waitFor([d('decisions', 0, 0)], 200)).resolves.toBe(false);
  });

  it('fails to open against a dead address with the connection error', async () => {
    await expect(ElasticsearchReadModels.open({ node: 'http://127.0.0.1:1', indexPrefix: uniquePrefix(), logger: QUIET })).rejects.toThrow(
      /ECONNREFUSED|connect/i,
    );
  });

  it('opens once the node comes up, logging each failed attempt', async () => {
    const { prefix } = await fresh();
    const probe = await relayTo(ES_URL);
    await probe.cut(); // its port is free now: nothing listens there yet
    const errors: string[] = [];
    let relay: Awaited<ReturnType<typeof relayTo>> | null = null;
    const opening = openElasticsearchWithRetry({ node: probe.url, indexPrefix: prefix, logger: { ...QUIET, error: (m) => errors.push(m) } }, async () => {
      relay ??= await relayTo(ES_URL, probe.port); // the node "comes up" after the first failure
    });
    const rm = track(await opening);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(probe.url);
    await expect(rm.healthy()).resolves.toBe(true);
    await rm.close();
    opened.pop();
    await relay!.cut();
  });
});

describe('ElasticsearchReadModels: a generation made by an older build (real node)', () => {
  it('gains the mapping fields added since, so the new documents are accepted', async () => {
    const { prefix, open } = await fresh();
    await (await open()).close();
    // The decisions index as a build before `parts` made it: a fresh index without the field.
    const { Client } = await import('@elastic/elasticsearch');
    const client = new Client({ node: ES_URL });
    const index = Object.keys(await client.indices.getAlias({ name: `${prefix}-decisions` }))[0];
    const mapping = (await client.indices.getMapping({ index }))[index].mappings;
    const { parts: _parts, ...older } = mapping.properties!;
    await client.indices.delete({ index });
    await client.indices.create({ index, mappings: { dynamic: 'strict', properties: older } });
    await client.indices.putAlias({ index, name: `${prefix}-decisions` });
    await client.close();

    const rm = await open();
    await rm.applyBatch([at('decisions', 0, decision('t', 'with-parts'))]);
    expect((await rm.getDecision('t', 'with-parts'))?.parts).toHaveLength(1);
  });
});
