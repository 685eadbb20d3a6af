import { spawnSync } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Topic } from '@cds/events';
import { EventLogLockedError } from './lock-file';
import { HEADER_BYTES } from './record-codec';
import { event, RecordingLogger, TempDir } from './file-log.fixtures';

const T: Topic = 'decisions';
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('FileEventLog (files under a temp dir)', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = new TempDir();
  });
  afterEach(async () => {
    await tmp.cleanup();
  });

  describe('append and read', () => {
    it('gives dense offsets from 0 and reads back the same envelopes', async () => {
      const log = await tmp.open();
      const first = await log.append(T, [event(0)]);
      const next = await log.append(T, [event(1), event(2), event(3)]);

      expect(first).toEqual([{ topic: T, partition: 0, offset: 0 }]);
      expect(next.map((p) => p.offset)).toEqual([1, 2, 3]);
      expect(await log.endOffsets(T)).toEqual(new Map([[0, 4]]));
      const all = await log.read(T, 0, 0, 100);
      expect(all).toEqual([0, 1, 2, 3].map((n) => ({ topic: T, partition: 0, offset: n, event: event(n) })));
      expect((await log.read(T, 0, 2, 1)).map((s) => s.offset)).toEqual([2]);
      expect(await log.read(T, 0, 4, 10)).toEqual([]);
      const encoded = await log.readEncoded(T, 0, 1, 2);
      expect(encoded.map(({ json, ...at }) => ({ ...at, event: JSON.parse(json) }))).toEqual(
        [1, 2].map((n) => ({ topic: T, partition: 0, offset: n, event: event(n) })),
      );
      expect(await log.readEncoded(T, 0, 4, 10)).toEqual([]);
      await expect(log.readEncoded(T, 1, 0, 1)).rejects.toThrow(RangeError);
    });

    it('keeps topics apart, each with its own offsets', async () => {
      const log = await tmp.open();
      await log.append('decisions', [event(1)]);
      const [p] = await log.append('policies', [event(2)]);

      expect(p.offset).toBe(0);
      expect(await log.endOffsets('keys')).toEqual(new Map([[0, 0]]));
      expect((await log.read('policies', 0, 0, 10)).map((s) => s.event.id)).toEqual(['evt-2']);
    });

    it('refuses events without string id, type, key or tenantId, writing nothing of the call', async () => {
      const log = await tmp.open();
      const { key: _key, ...noKey } = event(1);
      await expect(log.append(T, [event(0), noKey as never])).rejects.toThrow(/event 1 has no string key/);
      await expect(log.append(T, [null as never])).rejects.toThrow(/not an object/);
      await expect(log.append(T, [{ ...event(2), tenantId: 7 } as never])).rejects.toThrow(/tenantId/);
      expect(await log.endOffsets(T)).toEqual(new Map([[0, 0]]));
    });

    it('refuses a partition other than 0 and a bad topic name', async () => {
      const log = await tmp.open();
      await expect(log.read(T, 1, 0, 10)).rejects.toThrow(RangeError);
      await expect(log.append('../etc' as Topic, [event(0)])).rejects.toThrow(/invalid topic/);
    });

    it('gives 50 concurrent callers distinct offsets, contiguous per call, covering 0..n-1', async () => {
      const log = await tmp.open();
      const calls = Array.from({ length: 50 }, (_, c) => {
        const events = Array.from({ length: (c % 3) + 1 }, (_, i) => event(c * 10 + i));
        return log.append(T, events).then((positions) => ({ events, positions }));
      });
      const results = await Promise.all(calls);

      const offsets = results.flatMap((r) => r.positions.map((p) => p.offset));
      for (const { positions } of results) {
        positions.forEach((p, i) => expect(p.offset).toBe(positions[0].offset + i));
      }
      expect([...offsets].sort((a, b) => a - b)).toEqual(offsets.map((_, i) => i));
      const stored = await log.read(T, 0, 0, 1000);
      for (const { events, positions } of results) {
        positions.forEach((p, i) => expect(stored[p.offset].event).toEqual(events[i]));
      }
    });

    it('continues the offsets after a reopen', async () => {
      const log = await tmp.open();
      await log.append(T, [event(0), event(1)]);
      await log.close();

      const again = await tmp.open();
      expect(await again.append(T, [event(2)])).toEqual([{ topic: T, partition: 0, offset: 2 }]);
      expect((await again.read(T, 0, 0, 10)).map((s) => s.event.id)).toEqual(['evt-0', 'evt-1', 'evt-2']);
    });
  });

  describe('recovery of a torn tail', () => {
    /** Three records on disk, then `damage` on the segment file, then reopen. */
    async function damagedLog(damage: (file: string, lastRecordStart: number) => void) {
      const log = await tmp.open();
      await log.append(T, [event(0), event(1)]);
      await log.append(T, [event(2)]);
      await log.close();
      const file = path.join(tmp.segmentDir(T), '00000000000000000000.seg');
      damage(file, statSync(file).size - recordBytes(2));
      const logger = new RecordingLogger();
      return { log: await tmp.open({ logger }), logger, file };
    }

    const recordBytes = (n: number) => HEADER_BYTES + Buffer.byteLength(JSON.stringify(event(n)));

    async function expectCutTo(damaged: Awaited<ReturnType<typeof damagedLog>>, records: number) {
      const { log, logger, file } = damaged;
      expect(logger.warnings.join('\n')).toMatch(/torn tail/);
      expect(statSync(file).size).toBe(range(records).reduce((sum, n) => sum + recordBytes(n), 0));
      expect(await log.endOffsets(T)).toEqual(new Map([[0, records]]));
      const kept = await log.read(T, 0, 0, 10);
      expect(kept.map((s) => s.event)).toEqual(Array.from({ length: records }, (_, i) => event(i)));
      // The next append takes the offset after the intact records, and survives a reopen.
      expect((await log.append(T, [event(99)]))[0].offset).toBe(records);
      await log.close();
      const quiet = new RecordingLogger();
      const reopened = await tmp.open({ logger: quiet });
      expect(quiet.warnings).toEqual([]);
      expect((await reopened.read(T, 0, 0, 10)).map((s) => s.event.id)).toEqual([...kept.map((s) => s.event.id), 'evt-99']);
    }

    it('cuts a record truncated mid-payload', async () => {
      const damaged = await damagedLog((file) => truncateSync(file, statSync(file).size - 5));
      await expectCutTo(damaged, 2);
    });

    it('cuts a record truncated inside its header', async () => {
      const damaged = await damagedLog((file, last) => truncateSync(file, last + 3));
      await expectCutTo(damaged, 2);
    });

    it('cuts garbage bytes appended after the last record', async () => {
      const damaged = await damagedLog((file) => appendFileSync(file, Buffer.from('garbage that is not a record at all')));
      await expectCutTo(damaged, 3);
    });

    it('cuts zeros appended after the last record (bad length)', async () => {
      const damaged = await damagedLog((file) => appendFileSync(file, Buffer.alloc(4096)));
      await expectCutTo(damaged, 3);
    });

    it('cuts the last record when a byte of its payload is flipped (CRC mismatch)', async () => {
      const damaged = await damagedLog((file, last) => {
        const bytes = readFileSync(file);
        bytes[last + HEADER_BYTES + 10] ^= 0x20;
        writeFileSync(file, bytes);
      });
      expect(damaged.logger.warnings.join('\n')).toMatch(/CRC mismatch/);
      await expectCutTo(damaged, 2);
    });

    it('keeps the bytes it cut beside the segment', async () => {
      const { log } = await damagedLog((file) => appendFileSync(file, Buffer.from('junk!')));
      const torn = readdirSync(tmp.segmentDir(T)).filter((n) => n.includes('.torn-'));
      expect(torn).toHaveLength(1);
      expect(readFileSync(path.join(tmp.segmentDir(T), torn[0]), 'utf8')).toBe('junk!');
      expect(await log.endOffsets(T)).toEqual(new Map([[0, 3]]));
    });
  });

  describe('segments', () => {
    it('rolls past segmentBytes and reads across segments, before and after a reopen', async () => {
      const log = await tmp.open({ segmentBytes: 4096 });
      const expected = Array.from({ length: 600 }, (_, n) => event(n, { pad: 'p'.repeat(n % 50) }));
      for (let i = 0; i < expected.length; i += 7) await log.append(T, expected.slice(i, i + 7));

      const files = readdirSync(tmp.segmentDir(T))
        .filter((n) => n.endsWith('.seg'))
        .sort();
      expect(files.length).toBeGreaterThan(10);
      expect(files[0]).toBe('00000000000000000000.seg');
      for (const f of files) expect(f).toMatch(/^\d{20}\.seg$/);
      // A segment holds records from its base offset on: its name is the offset of its first record.
      const bases = files.map((f) => Number(f.slice(0, 20)));
      for (const base of bases) expect((await log.read(T, 0, base, 1))[0].event).toEqual(expected[base]);
      for (const f of files.slice(0, -1)) expect(statSync(path.join(tmp.segmentDir(T), f)).size).toBeLessThan(4096 + 400);

      const windows: Array<[number, number]> = [
        [0, 600],
        [1, 5],
        [63, 3],
        [64, 1],
        [130, 200],
        [bases[3] - 1, 2],
        [599, 10],
      ];
      const check = async (l: typeof log) => {
        for (const [from, max] of windows) {
          const got = await l.read(T, 0, from, max);
          expect(got.map((s) => s.offset)).toEqual(expected.slice(from, from + max).map((_, i) => from + i));
          expect(got.map((s) => s.event)).toEqual(expected.slice(from, from + max));
        }
      };
      await check(log);
      await log.close();
      const current = await tmp.open({ segmentBytes: 4096 });
      await check(current);
      expect((await current.append(T, [event(600)]))[0].offset).toBe(600);
    });

    it('serves reads older than the in-memory tail from disk through the sparse index', async () => {
      const log = await tmp.open();
      const many = Array.from({ length: 60_000 }, (_, n) => ({ ...event(n), data: { n } }));
      for (let i = 0; i < many.length; i += 5000) await log.append(T, many.slice(i, i + 5000));

      const from = 1234;
      const got = await log.read(T, 0, from, 500);
      expect(got.map((s) => s.offset)).toEqual(Array.from({ length: 500 }, (_, i) => from + i));
      expect(got.map((s) => s.event)).toEqual(many.slice(from, from + 500));
      const encoded = await log.readEncoded(T, 0, from, 500);
      expect(encoded.map((e) => e.offset)).toEqual(got.map((s) => s.offset));
      expect(encoded.map((e) => JSON.parse(e.json))).toEqual(many.slice(from, from + 500));
      expect((await log.read(T, 0, 59_990, 100)).map((s) => s.offset)).toEqual(Array.from({ length: 10 }, (_, i) => 59_990 + i));
    });
  });

  describe('close', () => {
    it('flushes queued appends (they resolve) and refuses appends afterwards', async () => {
      const log = await tmp.open();
      const appends = Array.from({ length: 100 }, (_, n) => log.append(T, [event(n)]));
      const closed = log.close();
      await expect(log.append(T, [event(100)])).rejects.toThrow(/closed/);
      const positions = (await Promise.all(appends)).flat();
      await closed;

      expect(positions.map((p) => p.offset).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
      expect(await log.healthy()).toBe(false);
      const reopened = await tmp.open();
      expect(await reopened.healthy()).toBe(true);
      expect(await reopened.endOffsets(T)).toEqual(new Map([[0, 100]]));
    });
  });

  describe('lock', () => {
    it('refuses a second open of the same directory while the first is open', async () => {
      const log = await tmp.open();
      await expect(tmp.open()).rejects.toThrow(EventLogLockedError);
      await log.close();
      await expect(tmp.open()).resolves.toBeDefined();
    });

    it('refuses a directory locked by another live process', async () => {
      writeFileSync(path.join(tmp.path, 'LOCK'), `${process.ppid} -\n`);
      await expect(tmp.open()).rejects.toThrow(new RegExp(`locked by process ${process.ppid}`));
    });

    it('takes over the lock of a dead process', async () => {
      const dead = spawnSync(process.execPath, ['-e', '0']).pid;
      writeFileSync(path.join(tmp.path, 'LOCK'), `${dead} -\n`);
      const log = await tmp.open();
      expect(readFileSync(path.join(tmp.path, 'LOCK'), 'utf8')).toMatch(new RegExp(`^${process.pid} `));
      await log.close();
      expect(readdirSync(tmp.path)).not.toContain('LOCK');
    });
  });
});
