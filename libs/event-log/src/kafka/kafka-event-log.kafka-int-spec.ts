/**
 * KafkaEventLog against a REAL broker (scripts/infra/infra.sh start kafka), at
 * KAFKA_BROKERS (default 127.0.0.1:9092). No broker -> these tests fail (never skip).
 * Every run uses its own topic prefix and deletes its topics afterwards.
 */
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { EventEnvelope, Topic, TOPICS } from '@cds/events';
import { EncodedEvent, EventLogAppendError, StoredEvent, Subscription } from '../event-log.port';
import { KafkaEventLog } from './kafka-event-log.adapter';
import { KafkaEventLogLogger } from './kafka-event-log.options';

jest.setTimeout(90_000);

const BROKERS = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const PREFIX = `it-${Date.now().toString(36)}-${randomUUID().slice(0, 6)}`;
const PARTITIONS = 3;

const lines: string[] = [];
const logger: KafkaEventLogLogger = {
  log: (m) => lines.push(`log ${m}`),
  warn: (m) => lines.push(`warn ${m}`),
  error: (m) => lines.push(`error ${m}`),
};

function ev(key: string, n: number, type = 'test.happened'): EventEnvelope {
  return { id: randomUUID(), type, version: 1, occurredAt: new Date().toISOString(), tenantId: 't1', key, data: { n } };
}

async function waitFor(cond: () => boolean, ms = 30_000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let log: KafkaEventLog;
const admin = new Kafka({ clientId: 'it-admin', brokers: BROKERS, logLevel: logLevel.NOTHING }).admin();

beforeAll(async () => {
  log = new KafkaEventLog({
    brokers: BROKERS,
    clientId: 'event-log-it',
    topicPrefix: PREFIX,
    partitions: PARTITIONS,
    logger,
    connectTimeoutMs: 15_000, // unreachable broker: fail the suite, do not hang
    retryInitialMs: 50,
    retryMaxMs: 400,
  });
  await log.connect();
  await admin.connect();
});

afterAll(async () => {
  await log?.close();
  try {
    const mine = (await admin.listTopics()).filter((t) => t.startsWith(`${PREFIX}.`));
    if (mine.length) await admin.deleteTopics({ topics: mine });
  } finally {
    await admin.disconnect();
  }
});

describe('KafkaEventLog on a real broker', () => {
  it('creates one topic per stream with unlimited retention', async () => {
    const names = TOPICS.map((t) => `${PREFIX}.${t}`);
    const meta = await admin.fetchTopicMetadata({ topics: names });
    expect(meta.topics.map((t) => t.name).sort()).toEqual([...names].sort());
    for (const t of meta.topics) expect(t.partitions).toHaveLength(PARTITIONS);
    const configs = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: 2 /* TOPIC */, name: `${PREFIX}.decisions`, configNames: ['retention.ms', 'retention.bytes', 'cleanup.policy'] }],
    });
    const entries = Object.fromEntries(configs.resources[0].configEntries.map((c) => [c.configName, c.configValue]));
    expect(entries).toEqual({ 'retention.ms': '-1', 'retention.bytes': '-1', 'cleanup.policy': 'delete' });
    expect(await log.healthy()).toBe(true);
  });

  it('a second adapter on existing topics connects without recreating them', async () => {
    const other = await KafkaEventLog.open({ brokers: BROKERS, clientId: 'it-2', topicPrefix: PREFIX, partitions: 7, logger });
    try {
      expect(other.partitionFor('decisions', 'k')).toBe(log.partitionFor('decisions', 'k'));
      expect((await other.endOffsets('decisions')).size).toBe(PARTITIONS);
    } finally {
      await other.close();
    }
  });

  it('append returns exactly where each event landed, and read gives them back', async () => {
    const before = await log.endOffsets('decisions');
    const events = Array.from({ length: 40 }, (_, i) => ev(`agg-${i % 9}`, i));
    const positions = await log.append('decisions', events);
    expect(positions).toHaveLength(events.length);

    // keyed: one key -> one partition (Kafka's murmur2 partitioner); per partition the
    // offsets are dense and in call order, starting at the previous end offset
    const expectedNext = new Map(before);
    positions.forEach((p, i) => {
      expect(p.topic).toBe('decisions');
      expect(p.partition).toBe(log.partitionFor('decisions', events[i].key));
      expect(p.offset).toBe(expectedNext.get(p.partition));
      expectedNext.set(p.partition, p.offset + 1);
    });
    expect(new Set(positions.map((p) => p.partition)).size).toBeGreaterThan(1); // the batch spans partitions
    expect(await log.endOffsets('decisions')).toEqual(expectedNext);

    // read each partition back from its first new offset
    for (const [partition, start] of before) {
      const mine = positions.map((p, i) => ({ p, e: events[i] })).filter((x) => x.p.partition === partition);
      const got = await log.read('decisions', partition, start, 1000);
      expect(got.map((s) => s.offset)).toEqual(mine.map((x) => x.p.offset));
      expect(got.map((s) => s.event)).toEqual(mine.map((x) => x.e));
      expect(got.every((s) => s.topic === 'decisions' && s.partition === partition)).toBe(true);
    }

    // from the middle, with a max
    const p0 = positions[5];
    const mid = await log.read('decisions', p0.partition, p0.offset, 2);
    expect(mid.map((s) => s.offset)).toEqual([p0.offset, p0.offset + 1]);
    expect(mid[0].event.id).toBe(events[5].id);
    const encoded = await log.readEncoded('decisions', p0.partition, p0.offset, 2);
    expect(encoded.map(({ json, ...at }) => ({ ...at, event: JSON.parse(json) }))).toEqual(mid);

    // past the end: nothing (not an error)
    const end = expectedNext.get(p0.partition)!;
    expect(await log.read('decisions', p0.partition, end, 10)).toEqual([]);
    expect(await log.read('decisions', p0.partition, end + 100, 10)).toEqual([]);
  });

  it('reads a long partition across several fetches', async () => {
    const big = 'x'.repeat(20_000);
    const events = Array.from({ length: 300 }, (_, i) => ({ ...ev('one-key', i), data: { n: i, big } }));
    const start = (await log.endOffsets('jobs')).get(log.partitionFor('jobs', 'one-key'))!;
    const positions = await log.append('jobs', events); // ~6 MB, one record batch; reads come in 4 MB fetches
    expect(positions.map((p) => p.offset)).toEqual(events.map((_, i) => start + i));
    const got = await log.read('jobs', positions[0].partition, start, 10_000);
    expect(got).toHaveLength(300);
    expect(got.map((s) => s.event.id)).toEqual(events.map((e) => e.id));
    const encoded = await log.readEncoded('jobs', positions[0].partition, start, 10_000);
    expect(encoded.map((e) => e.offset)).toEqual(got.map((s) => s.offset));
    expect(encoded.map((e) => JSON.parse(e.json).id)).toEqual(events.map((e) => e.id));
  });

  it('coalesces concurrent appends into few produce requests, with exact offsets', async () => {
    const producer = (log as any).producer;
    const spy = jest.spyOn(producer, 'sendBatch');
    try {
      const calls = Array.from({ length: 300 }, (_, i) => {
        const topic: Topic = i % 3 === 0 ? 'webhooks' : 'deliveries';
        const events = [ev(`c-${i % 17}`, i), ev(`c-${i % 17}`, i + 1000)];
        return { topic, events, result: log.append(topic, events) };
      });
      const results = await Promise.all(calls.map((c) => c.result));
      expect(spy.mock.calls.length).toBeLessThanOrEqual(3);
      expect(spy.mock.calls.length).toBeGreaterThanOrEqual(1);

      // every position is unique and holds exactly the event appended there
      const seen = new Set<string>();
      for (let i = 0; i < calls.length; i++) {
        const [a, b] = results[i];
        expect(b.partition).toBe(a.partition);
        expect(b.offset).toBe(a.offset + 1); // one call's events, one key: adjacent, in order
        for (const [j, p] of results[i].entries()) {
          const k = `${p.topic}/${p.partition}/${p.offset}`;
          expect(seen.has(k)).toBe(false);
          seen.add(k);
          const [stored] = await log.read(p.topic, p.partition, p.offset, 1);
          expect(stored.event.id).toBe(calls[i].events[j].id);
        }
      }
    } finally {
      spy.mockRestore();
    }
  });

  it('rejects bad input', async () => {
    await expect(log.append('nope' as Topic, [ev('k', 1)])).rejects.toThrow(/unknown topic/);
    await expect(log.append('keys', [{ ...ev('k', 1), key: '' }])).rejects.toThrow(/key/);
    expect(await log.append('keys', [])).toEqual([]);
  });
});

describe('KafkaEventLog subscriptions on a real broker', () => {
  const subs: Subscription[] = [];
  afterEach(async () => {
    await Promise.all(subs.splice(0).map((s) => s.stop()));
  });

  async function subscribe(group: string, topics: Topic[], handler: (b: StoredEvent[]) => Promise<void>, startFrom?: 'committed' | 'beginning') {
    const sub = await log.subscribe({ group, topics, handler, startFrom, maxBatch: 50 });
    subs.push(sub);
    return sub;
  }

  it('commits only after the handler: a restarted member resumes after the committed events', async () => {
    const group = `${PREFIX}-g1`;
    const first = Array.from({ length: 12 }, (_, i) => ev(`p-${i % 4}`, i));
    await log.append('policies', first);

    const got: StoredEvent[] = [];
    const sub = await subscribe(group, ['policies'], async (b) => {
      got.push(...b);
    });
    await waitFor(() => got.length >= first.length, 30_000, 'first delivery');
    expect(new Set(got.map((s) => s.event.id))).toEqual(new Set(first.map((e) => e.id)));
    // per partition in offset order
    for (let p = 0; p < PARTITIONS; p++) {
      const offs = got.filter((s) => s.partition === p).map((s) => s.offset);
      expect(offs).toEqual([...offs].sort((a, b) => a - b));
    }
    await sub.stop();
    subs.length = 0;

    const second = Array.from({ length: 5 }, (_, i) => ev(`p-${i}`, 100 + i));
    await log.append('policies', second);
    const again: StoredEvent[] = [];
    await subscribe(group, ['policies'], async (b) => {
      again.push(...b);
    });
    await waitFor(() => again.length >= second.length, 30_000, 'second delivery');
    await sleep(1_000); // anything committed coming again would show up by now
    expect(again.map((s) => s.event.id).sort()).toEqual(second.map((e) => e.id).sort());
  });

  it('delivers the records as the JSON text they hold when asked for them encoded', async () => {
    const group = `${PREFIX}-g-encoded`;
    const events = Array.from({ length: 6 }, (_, i) => ev(`e-${i % 3}`, i));
    const positions = await log.append('decisions', events);
    const got: EncodedEvent[] = [];
    const sub = await log.subscribe({
      group,
      topics: ['decisions'],
      startFrom: 'beginning',
      maxBatch: 50,
      encoded: true,
      handler: async (b) => {
        got.push(...b);
      },
    });
    subs.push(sub);
    const mine = new Set(events.map((e) => e.id));
    await waitFor(() => got.filter((s) => mine.has(JSON.parse(s.json).id)).length >= events.length, 30_000, 'encoded delivery');
    const byId = new Map(got.map((s) => [JSON.parse(s.json).id as string, s]));
    events.forEach((e, i) => {
      const s = byId.get(e.id)!;
      expect(typeof s.json).toBe('string');
      expect(JSON.parse(s.json)).toEqual(e);
      expect({ topic: s.topic, partition: s.partition, offset: s.offset }).toEqual(positions[i]);
    });
  });

  it('redelivers a failing batch with backoff, never skipping it, and commits it once handled', async () => {
    const group = `${PREFIX}-g2`;
    const events = Array.from({ length: 4 }, (_, i) => ev('same-key', i));
    const positions = await log.append('guardrails', events);
    const deliveries: string[][] = [];
    let fail = 3;
    await subscribe(group, ['guardrails'], async (b) => {
      deliveries.push(b.map((s) => s.event.id));
      if (fail-- > 0) throw new Error('projection store down');
    });
    await waitFor(() => deliveries.length >= 4, 30_000, 'redeliveries');
    const ids = events.map((e) => e.id);
    for (const d of deliveries) expect(d).toEqual(ids); // the same chunk every time, in order
    expect(lines.some((l) => l.includes('handler failed') && l.includes('projection store down'))).toBe(true);

    // committed after the successful attempt: end offset of the group == partition end
    const committed = await waitForCommitted(group, 'guardrails', positions[0].partition, positions[3].offset + 1);
    expect(committed).toBe(positions[3].offset + 1);
  });

  it('a member stopped while a batch keeps failing leaves it uncommitted: the next member gets it', async () => {
    const group = `${PREFIX}-g3`;
    const a = [ev('k3', 1), ev('k3', 2)];
    await log.append('keys', a);
    const seenA: string[] = [];
    let sub = await subscribe(group, ['keys'], async (b) => {
      seenA.push(...b.map((s) => s.event.id));
    });
    await waitFor(() => seenA.length >= 2, 30_000, 'batch A');

    await sub.stop();
    subs.length = 0;
    const b = [ev('k3', 3), ev('k3', 4), ev('k3', 5)];
    await log.append('keys', b);
    let failures = 0;
    sub = await subscribe(group, ['keys'], async () => {
      failures++;
      throw new Error('always failing');
    });
    await waitFor(() => failures >= 2, 30_000, 'failing deliveries');
    const t0 = Date.now();
    await sub.stop(); // wakes the backoff wait, does not commit
    expect(Date.now() - t0).toBeLessThan(10_000);
    subs.length = 0;

    const seenB: StoredEvent[] = [];
    await subscribe(group, ['keys'], async (batch) => {
      seenB.push(...batch);
    });
    await waitFor(() => seenB.length >= 3, 30_000, 'redelivery of B');
    await sleep(1_000);
    expect(seenB.map((s) => s.event.id)).toEqual(b.map((e) => e.id)); // B again, A not again
  });

  it("startFrom 'beginning' ignores the group's checkpoint", async () => {
    const group = `${PREFIX}-g4`;
    const events = Array.from({ length: 6 }, (_, i) => ev(`b-${i}`, i));
    await log.append('decisions', events);
    const firstRun: StoredEvent[] = [];
    const sub = await subscribe(group, ['decisions'], async (b) => {
      firstRun.push(...b);
    });
    const total = [...(await log.endOffsets('decisions')).values()].reduce((a, b) => a + b, 0);
    await waitFor(() => firstRun.length >= total, 30_000, 'first run');
    await sub.stop();
    subs.length = 0;

    const replay: StoredEvent[] = [];
    await subscribe(
      group,
      ['decisions'],
      async (b) => {
        replay.push(...b);
      },
      'beginning',
    );
    await waitFor(() => replay.length >= total, 30_000, 'replay');
    expect(replay.map((s) => `${s.partition}/${s.offset}`).sort()).toEqual(firstRun.map((s) => `${s.partition}/${s.offset}`).sort());
    expect(Math.min(...replay.map((s) => s.offset))).toBe(0);
  });

  async function waitForCommitted(group: string, topic: Topic, partition: number, expected: number): Promise<number> {
    let last = -1;
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      const [t] = await admin.fetchOffsets({ groupId: log.groupName(group), topics: [`${PREFIX}.${topic}`] });
      last = Number(t.partitions.find((p) => p.partition === partition)?.offset ?? -1);
      if (last === expected) break;
      await sleep(100);
    }
    return last;
  }
});

describe('KafkaEventLog without a broker', () => {
  it('reports unhealthy, and an append that cannot be sent rejects as not appended', async () => {
    const dead = new KafkaEventLog({
      brokers: ['127.0.0.1:1'],
      clientId: 'it-dead',
      topicPrefix: PREFIX,
      logger,
      appendTimeoutMs: 1_500,
      retryInitialMs: 100,
      retryMaxMs: 200,
    });
    void dead.connect().catch(() => undefined);
    expect(await dead.healthy()).toBe(false);
    const err = await dead.append('decisions', [ev('k', 1)]).catch((e) => e);
    expect(err).toBeInstanceOf(EventLogAppendError);
    expect(err.maybeAppended).toBe(false);
    await waitFor(() => lines.some((l) => l.startsWith('warn') && l.includes('127.0.0.1:1') && l.includes('retrying')), 20_000, 'a retry warning');
    const t0 = Date.now();
    await dead.close(); // stops the connect loop promptly
    expect(Date.now() - t0).toBeLessThan(5_000);
    await expect(dead.append('decisions', [ev('k', 2)])).rejects.toThrow(/closed/);
  });
});
