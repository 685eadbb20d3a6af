import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
// Not through the libs' indexes: they load Nest, which jest must never load.
import { FileEventLog } from '../../event-log/src/file/file-event-log.adapter';
import type { GenerationLoad } from '../../read-models/src/generations.port';
import { SqliteGenerationLoad } from '../../read-models/src/sqlite/sqlite-generation-load';
import { SqliteReadModels } from '../../read-models/src/sqlite/sqlite-read-models.adapter';
import { decisionCreated } from '../../read-models/src/decision-event.fixtures';
import { rebuild } from './rebuild';

/** The rebuild over the generations port, on a real file log and SQLite read models. */

const decision = (id: string) => decisionCreated('t1', id);

class Logs {
  readonly lines: string[] = [];
  log = (m: string) => this.lines.push(`log ${m}`);
  warn = (m: string) => this.lines.push(`warn ${m}`);
  error = (m: string) => this.lines.push(`error ${m}`);
}

const QUICK = { takeoverMs: 300, promotionMs: 5_000 };

describe('rebuild (file log, SQLite generations)', () => {
  let root: string;
  let log: FileEventLog;
  let readModels: string;
  let served: string;

  beforeEach(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-rebuild-'));
    log = await FileEventLog.open({ dir: path.join(root, 'log') });
    await log.append(
      'decisions',
      Array.from({ length: 2500 }, (_, i) => decision(`d${i}`)),
    );
    readModels = path.join(root, 'readmodels');
    const first = SqliteReadModels.open(readModels); // the generation served before the rebuild
    served = first.generation();
    await first.close();
  });
  afterEach(async () => {
    await log.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const generationsOnDisk = () => fs.readdirSync(readModels).filter((f) => f.endsWith('.sqlite'));

  it('replays the log into a fresh generation, serves it and deletes the old one', async () => {
    const logs = new Logs();
    const result = await rebuild(async () => SqliteGenerationLoad.create(readModels, 2), log, logs);
    expect(result.events).toBe(2500);
    expect(result.generation).not.toBe(served);
    expect(result.setupMs).toBeLessThanOrEqual(result.replayMs);
    expect(result.replayMs).toBeLessThanOrEqual(result.ms);
    expect(generationsOnDisk()).toEqual([`${result.generation}.sqlite`]);
    const rm = SqliteReadModels.open(readModels);
    try {
      expect(rm.generation()).toBe(result.generation);
      expect(await rm.getDecision('t1', 'd2499')).not.toBeNull();
      expect(rm.appliedNextOffsets().get('decisions:0')).toBe(2500);
    } finally {
      await rm.close();
    }
    expect(logs.lines.filter((l) => !l.startsWith('log '))).toEqual([]);
  });

  it('deletes the generation of a failed load and leaves the served one', async () => {
    let made: GenerationLoad | undefined;
    const failing = async (): Promise<GenerationLoad> => {
      made = SqliteGenerationLoad.create(readModels, 2);
      let chunks = 0;
      return Object.assign(Object.create(made) as GenerationLoad, {
        apply: (chunk: Parameters<GenerationLoad['apply']>[0]) => (++chunks === 2 ? Promise.reject(new Error('disk full (test)')) : made!.apply(chunk)),
      });
    };
    await expect(rebuild(failing, log, new Logs())).rejects.toThrow('disk full (test)');
    expect(made).toBeDefined();
    expect(SqliteReadModels.servedGeneration(readModels)).toBe(served);
    expect(generationsOnDisk()).toEqual([`${served}.sqlite`]);
  });

  /** A SQLite load whose promotion requests another process would take: `taker` plays it. */
  const handedOver = (taker: 'takes' | 'absent', calls: string[]) => async (): Promise<GenerationLoad> => {
    const load = SqliteGenerationLoad.create(readModels, 2);
    let requested = false;
    let taken = false;
    return Object.assign(Object.create(load) as GenerationLoad, {
      requestPromotion: async () => {
        requested = true;
        if (taker === 'takes') {
          setTimeout(() => {
            taken = true;
            void load.promote().then(() => calls.push('promoted by the taker'));
          }, 100);
        }
        return true;
      },
      promotionPending: async () => requested && !taken,
      withdrawPromotion: async () => {
        calls.push('withdrawn');
        return !taken;
      },
      promote: async () => {
        calls.push('promoted by the rebuild');
        await load.promote();
      },
    });
  };

  it('hands the promotion to a live projector that takes it, and waits until it is served', async () => {
    const calls: string[] = [];
    const result = await rebuild(handedOver('takes', calls), log, new Logs(), QUICK);
    expect(calls).toEqual(['promoted by the taker']);
    expect(SqliteReadModels.servedGeneration(readModels)).toBe(result.generation);
  });

  it('promotes the generation itself when no live projector takes the request in time', async () => {
    const calls: string[] = [];
    const logs = new Logs();
    const result = await rebuild(handedOver('absent', calls), log, logs, QUICK);
    expect(calls).toEqual(['withdrawn', 'promoted by the rebuild']);
    expect(SqliteReadModels.servedGeneration(readModels)).toBe(result.generation);
    expect(logs.lines.some((l) => l.startsWith('warn no live projector took the promotion'))).toBe(true);
  });
});
