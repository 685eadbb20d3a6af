import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { envelope, DomainEvent } from '@cds/events';
import { ProjectedEvent } from '../read-models.port';
import { decisionCreated } from '../decision-event.fixtures';
import { SqliteReadModels } from './sqlite-read-models.adapter';

const dirOf = () => fs.mkdtempSync(path.join(os.tmpdir(), 'cds-rm-'));

const decision = (tenantId: string, id: string, action: 'allow' | 'block', requestId: string | null = null): DomainEvent =>
  decisionCreated(tenantId, id, { action, requestId });

const at = (topic: string, offset: number, event: DomainEvent): ProjectedEvent => ({ topic: topic as any, partition: 0, offset, event });

describe('SqliteReadModels', () => {
  it('applies decisions idempotently and scopes every query by tenant', async () => {
    const rm = SqliteReadModels.open(dirOf());
    const batch = [
      at('decisions', 0, decision('t1', 'd1', 'allow', 'r1')),
      at('decisions', 1, decision('t1', 'd2', 'block')),
      at('decisions', 2, decision('t2', 'd3', 'block')),
    ];
    await rm.applyBatch(batch);
    await rm.applyBatch(batch); // replayed: changes nothing
    expect((await rm.listDecisions('t1', { limit: 10, offset: 0 })).map((d) => d.decisionId).sort()).toEqual(['d1', 'd2']);
    expect((await rm.listDecisions('t1', { limit: 10, offset: 0, action: 'block' })).map((d) => d.decisionId)).toEqual(['d2']);
    expect(await rm.getDecision('t2', 'd1')).toBeNull();
    expect((await rm.getDecision('t1', 'd1'))?.content).toBe('content d1');
    expect((await rm.findDecisionByRequestId('t1', 'r1'))?.decisionId).toBe('d1');
    expect(await rm.findDecisionByRequestId('t2', 'r1')).toBeNull();
    await rm.close();
  });

  it('never lets an older policy event overwrite a newer one, and keeps the first createdAt', async () => {
    const rm = SqliteReadModels.open(dirOf());
    const saved = (version: number, name: string) =>
      envelope('policy.saved', 1, 't1', 'p', { policyId: 'p', name, version, yamlContent: `name: ${name}`, categories: {}, savedBy: 'k' });
    const v1 = saved(1, 'one');
    const v2 = saved(2, 'two');
    await rm.applyBatch([at('policies', 0, v1), at('policies', 1, v2)]);
    await rm.applyBatch([at('policies', 0, v1)]);
    const p = await rm.getPolicy('t1', 'p');
    expect(p).toMatchObject({ name: 'two', version: 2, createdAt: v1.occurredAt, updatedAt: v2.occurredAt });
    expect(await rm.getPolicy('t2', 'p')).toBeNull();
    await rm.close();
  });

  it('revokes keys and finds live keys by hash', async () => {
    const rm = SqliteReadModels.open(dirOf());
    const created = envelope('key.created', 1, 't1', 'k1', { keyId: 'k1', name: 'n', scopes: ['checks'], hash: 'ab', prefix: 'cds_x', createdBy: 'admin' });
    const revoked = envelope('key.revoked', 1, 't1', 'k1', { keyId: 'k1', revokedBy: 'admin' });
    await rm.applyBatch([at('keys', 0, created)]);
    expect((await rm.findKeyByHash('ab'))?.revokedAt).toBeNull();
    await rm.applyBatch([at('keys', 1, revoked)]);
    expect((await rm.findKeyByHash('ab'))?.revokedAt).toBe(revoked.occurredAt);
    await rm.applyBatch([at('keys', 0, created)]); // an older event changes nothing
    expect((await rm.getKey('t1', 'k1'))?.revokedAt).toBe(revoked.occurredAt);
    expect(await rm.getKey('t2', 'k1')).toBeNull();
    await rm.close();
  });

  it('wakes writers waiting for their position, and times out otherwise', async () => {
    const rm = SqliteReadModels.open(dirOf());
    const waiting = rm.waitFor([{ topic: 'decisions', partition: 0, offset: 1 }], 5000);
    await rm.applyBatch([at('decisions', 0, decision('t', 'a', 'allow'))]);
    await rm.applyBatch([at('decisions', 1, decision('t', 'b', 'allow'))]);
    await expect(waiting).resolves.toBe(true);
    await expect(rm.waitFor([{ topic: 'decisions', partition: 0, offset: 9 }], 20)).resolves.toBe(false);
    await rm.close();
  });

  it('keeps positions and documents across reopen; a new generation is served only once promoted', async () => {
    const dir = dirOf();
    const rm = SqliteReadModels.open(dir);
    const gen1 = rm.generation();
    await rm.applyBatch([at('decisions', 0, decision('t', 'a', 'allow'))]);
    await rm.close();

    const reopened = SqliteReadModels.open(dir);
    expect(reopened.generation()).toBe(gen1);
    await expect(reopened.waitFor([{ topic: 'decisions', partition: 0, offset: 0 }], 10)).resolves.toBe(true);
    await reopened.close();

    const fresh = SqliteReadModels.createGeneration(dir);
    await fresh.applyBatch([at('decisions', 0, decision('t', 'b', 'allow'))]);
    expect(SqliteReadModels.open(dir).generation()).toBe(gen1);
    fresh.promote();
    await fresh.close();
    const served = SqliteReadModels.open(dir);
    expect(served.generation()).toBe(fresh.generation());
    expect(await served.getDecision('t', 'b')).not.toBeNull();
    expect(await served.getDecision('t', 'a')).toBeNull();
    expect(fs.readdirSync(dir).filter((f) => f.startsWith(gen1))).toEqual([]);
    await served.close();
  });

  it('a rebuilt generation, loaded in bulk, is served with the indexes and the WAL of a first one', async () => {
    const layout = (file: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return {
          indexes: db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name").all(),
          journal: db.pragma('journal_mode', { simple: true }),
        };
      } finally {
        db.close();
      }
    };
    const first = SqliteReadModels.open(dirOf());
    const firstFile = path.join((first as unknown as { dir: string }).dir, `${first.generation()}.sqlite`);
    await first.close();

    const dir = dirOf();
    const fresh = SqliteReadModels.createGeneration(dir);
    await fresh.applyBatch([at('decisions', 0, decision('t', 'b', 'allow'))]);
    // While it loads: no secondary index of the documents' tables yet.
    const names = (file: string) => layout(file).indexes.map((i) => (i as { name: string }).name);
    const loading = names(path.join(dir, `${fresh.generation()}.sqlite`));
    expect(loading).not.toContain('decisions_by_tenant_time');
    expect(loading.length).toBeLessThan(names(firstFile).length);
    fresh.promote();
    await fresh.close();
    expect(layout(path.join(dir, `${fresh.generation()}.sqlite`))).toEqual(layout(firstFile));
    expect(layout(firstFile).journal).toBe('wal');
  });
});
