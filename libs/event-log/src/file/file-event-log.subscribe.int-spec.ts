import { readFileSync, renameSync } from 'node:fs';
import * as path from 'node:path';
import type { Topic } from '@cds/events';
import type { EncodedEvent, StoredEvent } from '../event-log.port';
import { Condition, event, RecordingLogger, TempDir } from './file-log.fixtures';

const T: Topic = 'decisions';

/** A handler that records what it was given. */
class Recorder {
  readonly batches: StoredEvent[][] = [];
  readonly changed = new Condition();
  failuresLeft = 0;

  readonly handler = async (batch: StoredEvent[]): Promise<void> => {
    this.batches.push(batch);
    this.changed.changed();
    if (this.failuresLeft > 0) {
      this.failuresLeft -= 1;
      throw new Error('projection store unavailable');
    }
  };

  /** Offsets delivered per topic, a redelivered batch counted once per delivery. */
  offsets(topic: Topic = T): number[] {
    return this.batches
      .flat()
      .filter((s) => s.topic === topic)
      .map((s) => s.offset);
  }

  until(count: number, topic: Topic = T): Promise<void> {
    return this.changed.wait(() => this.offsets(topic).length >= count, 5_000, `${count} events of ${topic}`);
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('FileEventLog subscriptions', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = new TempDir();
  });
  afterEach(async () => {
    await tmp.cleanup();
  });

  it('delivers from the beginning in offset order, in batches of at most maxBatch', async () => {
    const log = await tmp.open();
    await log.append(
      T,
      range(0, 25).map((n) => event(n)),
    );
    const rec = new Recorder();

    const sub = await log.subscribe({ group: 'g', topics: [T], startFrom: 'beginning', handler: rec.handler, maxBatch: 10 });
    await rec.until(25);
    await sub.stop();

    expect(rec.offsets()).toEqual(range(0, 25));
    expect(rec.batches.map((b) => b.length)).toEqual([10, 10, 5]);
    expect(rec.batches.flat().map((s) => s.event)).toEqual(range(0, 25).map((n) => event(n)));
  });

  it('delivers the events as the JSON text the log holds when asked for them encoded', async () => {
    const log = await tmp.open();
    await log.append(
      T,
      range(0, 25).map((n) => event(n)),
    );
    const batches: EncodedEvent[][] = [];
    const got = new Condition();
    const sub = await log.subscribe({
      group: 'g',
      topics: [T],
      startFrom: 'beginning',
      maxBatch: 10,
      encoded: true,
      handler: async (batch) => {
        batches.push(batch);
        got.changed();
      },
    });
    await got.wait(() => batches.flat().length >= 25, 5_000, '25 encoded events');
    await sub.stop();

    expect(batches.map((b) => b.length)).toEqual([10, 10, 5]);
    const flat = batches.flat();
    expect(flat.map((e) => typeof e.json)).toEqual(range(0, 25).map(() => 'string'));
    expect(flat.map(({ json, ...at }) => ({ ...at, event: JSON.parse(json) }))).toEqual(
      range(0, 25).map((n) => ({ topic: T, partition: 0, offset: n, event: event(n) })),
    );
  });

  it('resumes at the committed checkpoint after a reopen, and `beginning` ignores it', async () => {
    const log = await tmp.open();
    await log.append(
      T,
      range(0, 10).map((n) => event(n)),
    );
    const first = new Recorder();
    const sub = await log.subscribe({ group: 'projector', topics: [T], handler: first.handler });
    await first.until(10);
    await sub.stop();
    await log.close();
    const checkpoint = JSON.parse(readFileSync(path.join(tmp.path, 'checkpoints', 'projector.json'), 'utf8'));
    expect(checkpoint.offsets).toEqual({ [T]: 10 });

    const reopened = await tmp.open();
    await reopened.append(
      T,
      range(10, 15).map((n) => event(n)),
    );
    const resumed = new Recorder();
    const sub2 = await reopened.subscribe({ group: 'projector', topics: [T], startFrom: 'committed', handler: resumed.handler });
    await resumed.until(5);
    await sub2.stop();
    expect(resumed.offsets()).toEqual(range(10, 15));

    const replay = new Recorder();
    const sub3 = await reopened.subscribe({ group: 'projector', topics: [T], startFrom: 'beginning', handler: replay.handler });
    await replay.until(15);
    await sub3.stop();
    expect(replay.offsets()).toEqual(range(0, 15));
  });

  it('persists the checkpoint of the last finished batch on close', async () => {
    const log = await tmp.open();
    await log.append(
      T,
      range(0, 3).map((n) => event(n)),
    );
    const rec = new Recorder();
    await log.subscribe({ group: 'g', topics: [T], handler: rec.handler });
    await rec.until(3);
    await log.close();

    const checkpoint = JSON.parse(readFileSync(path.join(tmp.path, 'checkpoints', 'g.json'), 'utf8'));
    expect(checkpoint).toEqual({ group: 'g', offsets: { [T]: 3 } });
  });

  it('redelivers the same batch after a handler failure, skipping nothing', async () => {
    const logger = new RecordingLogger();
    const log = await tmp.open({ logger, retryInitialMs: 5, retryMaxMs: 20 });
    await log.append(
      T,
      range(0, 6).map((n) => event(n)),
    );
    const rec = new Recorder();
    rec.failuresLeft = 2;

    const sub = await log.subscribe({ group: 'g', topics: [T], handler: rec.handler, maxBatch: 4 });
    await rec.until(4 * 3 + 2);
    await sub.stop();

    expect(rec.batches.map((b) => b.map((s) => s.offset))).toEqual([
      [0, 1, 2, 3],
      [0, 1, 2, 3],
      [0, 1, 2, 3],
      [4, 5],
    ]);
    expect(logger.warnings.filter((w) => /handler failed on decisions\/0@0\.\.3/.test(w))).toHaveLength(2);
    await log.close();
    const checkpoint = JSON.parse(readFileSync(path.join(tmp.path, 'checkpoints', 'g.json'), 'utf8'));
    expect(checkpoint.offsets[T]).toBe(6);
  });

  it('does not move the checkpoint past a batch whose handler never succeeded', async () => {
    const log = await tmp.open({ retryInitialMs: 5, retryMaxMs: 5 });
    await log.append(
      T,
      range(0, 2).map((n) => event(n)),
    );
    const rec = new Recorder();
    rec.failuresLeft = Number.MAX_SAFE_INTEGER;
    const sub = await log.subscribe({ group: 'g', topics: [T], handler: rec.handler });
    await rec.changed.wait(() => rec.batches.length >= 3);
    await sub.stop();
    await log.close();

    const reopened = await tmp.open();
    const again = new Recorder();
    await reopened.subscribe({ group: 'g', topics: [T], handler: again.handler });
    await again.until(2);
    expect(again.offsets()).toEqual([0, 1]);
  });

  it('pushes events appended after catch-up from memory, without reading the segment files', async () => {
    const log = await tmp.open();
    await log.append(
      T,
      range(0, 3).map((n) => event(n)),
    );
    const rec = new Recorder();
    const sub = await log.subscribe({ group: 'live', topics: [T, 'policies'], handler: rec.handler });
    await rec.until(3);

    // Hide the files by path: the writer keeps its open descriptor, a disk read would fail.
    const dir = tmp.segmentDir(T);
    renameSync(dir, `${dir}-hidden`);
    try {
      await log.append(T, [event(3)]);
      await log.append(T, [event(4), event(5)]);
      await log.append('policies', [event(6)]);
      await rec.until(6);
      await rec.until(1, 'policies');
    } finally {
      await sub.stop();
      renameSync(`${dir}-hidden`, dir);
    }
    expect(rec.offsets()).toEqual(range(0, 6));
    expect(rec.offsets('policies')).toEqual([0]);
    expect(rec.batches.flat().map((s) => s.event.id)).toContain('evt-6');
  });

  it('stop() waits for the in-flight batch and commits it', async () => {
    const log = await tmp.open();
    await log.append(T, [event(0)]);
    let release!: () => void;
    const started = new Condition();
    let running = false;
    let finished = false;
    const sub = await log.subscribe({
      group: 'slow',
      topics: [T],
      handler: async () => {
        running = true;
        started.changed();
        await new Promise<void>((resolve) => (release = resolve));
        finished = true;
      },
    });
    await started.wait(() => running);

    let stopped = false;
    const stopping = sub.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(true);
    const checkpoint = JSON.parse(readFileSync(path.join(tmp.path, 'checkpoints', 'slow.json'), 'utf8'));
    expect(checkpoint.offsets[T]).toBe(1);
  });

  it('refuses a second subscription of the same group to the same topic', async () => {
    const log = await tmp.open();
    const rec = new Recorder();
    const sub = await log.subscribe({ group: 'g', topics: [T], handler: rec.handler });
    await expect(log.subscribe({ group: 'g', topics: [T], handler: rec.handler })).rejects.toThrow(/already consumes decisions/);
    await sub.stop();
    await expect(log.subscribe({ group: 'g', topics: [T], handler: rec.handler })).resolves.toBeDefined();
  });
});
