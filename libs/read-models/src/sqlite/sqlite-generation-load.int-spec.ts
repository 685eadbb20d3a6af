import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decisionCreatedV1ToV2, envelope } from '@cds/events';
import type { EncodedEvent } from '@cds/event-log';
import { encode, V1 } from './encoded-events.fixtures';
import { SqliteGenerationLoad } from './sqlite-generation-load';
import { SqliteReadModels } from './sqlite-read-models.adapter';

const dirOf = () => fs.mkdtempSync(path.join(os.tmpdir(), 'cds-gen-load-'));
const decision = (offset: number, id: string, content: string): EncodedEvent =>
  encode('decisions', offset, envelope('decision.created', 2, 't1', id, decisionCreatedV1ToV2({ ...V1, decisionId: id, requestId: null, content })));
const filesOf = (dir: string, gen: string) => fs.readdirSync(dir).filter((f) => f.startsWith(gen));

describe('SqliteGenerationLoad (the generations port on SQLite)', () => {
  it('writes chunks handed ahead in the order handed, whichever is decoded first', async () => {
    const dir = dirOf();
    const load = SqliteGenerationLoad.create(dir, 2);
    try {
      // The first chunk takes its thread far longer to decode than the second takes the
      // other: written out of order, the second's `d1` would be stored, not the first's.
      const first = Array.from({ length: 3000 }, (_, i) => decision(i, `filler-${i}`, 'filler'));
      first.push(decision(3000, 'd1', 'from the first chunk'));
      const applying = [load.apply(first), load.apply([decision(3001, 'd1', 'from the second chunk')])];
      await expect(Promise.all(applying)).resolves.toEqual([[], []]);
      await load.finishLoad();
      await load.promote();
    } finally {
      await load.close();
    }
    const served = SqliteReadModels.open(dir);
    try {
      expect(served.generation()).toBe(load.generation);
      expect((await served.getDecision('t1', 'd1'))?.content).toBe('from the first chunk');
      expect(served.appliedNextOffsets().get('decisions:0')).toBe(3002);
    } finally {
      await served.close();
    }
  });

  it('reports the events it parks, and writes the others', async () => {
    const dir = dirOf();
    const load = SqliteGenerationLoad.create(dir, 1);
    try {
      const parked = await load.apply([decision(0, 'd1', 'readable'), encode('decisions', 1, '{"id": "x"')]);
      expect(parked).toHaveLength(1);
      expect(parked[0]).toContain('decisions/0@1');
      await load.promote();
    } finally {
      await load.close();
    }
    const served = SqliteReadModels.open(dir);
    expect((await served.getDecision('t1', 'd1'))?.content).toBe('readable');
    await served.close();
  });

  it('has nobody to hand its promotion to, and is served once it promotes itself', async () => {
    const dir = dirOf();
    const old = SqliteReadModels.open(dir);
    await old.close();
    const load = SqliteGenerationLoad.create(dir, 1);
    try {
      await expect(load.requestPromotion()).resolves.toBe(false);
      await expect(load.isServed()).resolves.toBe(false);
      await load.promote();
      await expect(load.isServed()).resolves.toBe(true);
      // A served generation is not discarded.
      await load.discard();
      expect(filesOf(dir, load.generation)).not.toEqual([]);
      expect(filesOf(dir, old.generation())).toEqual([]);
    } finally {
      await load.close();
    }
  });

  it('discards an unserved generation: its files go, the served one stays', async () => {
    const dir = dirOf();
    const served = SqliteReadModels.open(dir);
    await served.applyBatch([]);
    await served.close();
    const load = SqliteGenerationLoad.create(dir, 1);
    await load.apply([decision(0, 'd1', 'never served')]);
    expect(filesOf(dir, load.generation)).not.toEqual([]);
    await load.discard();
    await load.close();
    expect(filesOf(dir, load.generation)).toEqual([]);
    expect(SqliteReadModels.servedGeneration(dir)).toBe(served.generation());
    expect(filesOf(dir, served.generation())).not.toEqual([]);
  });
});
