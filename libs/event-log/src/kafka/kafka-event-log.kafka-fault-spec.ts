/**
 * KafkaEventLog while the REAL broker restarts under load: stopped cleanly (SIGTERM)
 * and crashed (SIGKILL), through scripts/infra/infra.sh. The broker is one of its own
 * (PrivateBroker: own ports and data), so the shared broker of the other suites is
 * left alone:  npx jest --runInBand --selectProjects kafka-fault
 * Checks: every acknowledged append is in the log exactly once, at the position that
 * was returned; a subscription sees every one of them (at least once).
 */
import { randomUUID } from 'node:crypto';
import { EventEnvelope } from '@cds/events';
import { PrivateBroker } from '@cds/testing';
import { LogPosition, StoredEvent } from '../event-log.port';
import { KafkaEventLog } from './kafka-event-log.adapter';

jest.setTimeout(180_000);

const PREFIX = `fault-${Date.now().toString(36)}-${randomUUID().slice(0, 6)}`;
const lines: string[] = [];
const logger = {
  log: (m: string) => lines.push(`log ${m}`),
  warn: (m: string) => lines.push(`warn ${m}`),
  error: (m: string) => lines.push(`error ${m}`),
};
const ev = (key: string, n: number): EventEnvelope => ({
  id: randomUUID(),
  type: 'fault.test',
  version: 1,
  occurredAt: new Date().toISOString(),
  tenantId: 't',
  key,
  data: { n },
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let broker: PrivateBroker;
beforeAll(async () => {
  broker = await PrivateBroker.start('adapter-fault');
});
afterAll(() => broker?.destroy());

describe.each(['SIGTERM', 'SIGKILL'] as const)('broker restart (%s) under load', (mode) => {
  it('loses no acknowledged append, duplicates none, and the subscription catches up', async () => {
    const prefix = `${PREFIX}-${mode.toLowerCase()}`;
    const log = await KafkaEventLog.open({
      brokers: [broker.brokers],
      clientId: 'fault',
      topicPrefix: prefix,
      logger,
      retryInitialMs: 100,
      retryMaxMs: 1_000,
      appendTimeoutMs: 60_000,
      sessionTimeoutMs: 10_000, // as EventLogModule configures it
    });
    const seen = new Map<string, number>();
    const sub = await log.subscribe({
      group: `${prefix}-g`,
      topics: ['decisions'],
      maxBatch: 200,
      handler: async (b: StoredEvent[]) => {
        for (const s of b) seen.set(s.event.id, (seen.get(s.event.id) ?? 0) + 1);
      },
    });
    const acked = new Map<string, LogPosition>();
    const failed: string[] = [];
    let stop = false;
    const writers = Array.from({ length: 16 }, async (_, w) => {
      for (let n = 0; !stop; n++) {
        const e = ev(`w${w}-${n % 5}`, n);
        try {
          const [p] = await log.append('decisions', [e]);
          acked.set(e.id, p);
        } catch (err) {
          failed.push(String(err));
        }
      }
    });
    try {
      await sleep(2_000);
      const before = acked.size;
      await broker.restart(mode);
      await sleep(2_000);
      stop = true;
      await Promise.all(writers);
      expect(before).toBeGreaterThan(0);
      expect(acked.size).toBeGreaterThan(before); // it wrote again after the restart
      expect(failed).toEqual([]); // appends waited for the broker instead of failing

      // in the log exactly once each, at the returned position
      const at = new Map<string, string>();
      for (const [partition, end] of await log.endOffsets('decisions')) {
        for (const s of await log.read('decisions', partition, 0, end)) at.set(`${partition}/${s.offset}`, s.event.id);
      }
      expect(at.size).toBe(acked.size);
      let wrong = 0;
      for (const [id, p] of acked) if (at.get(`${p.partition}/${p.offset}`) !== id) wrong++;
      expect(wrong).toBe(0);

      const until = Date.now() + 60_000;
      while ([...acked.keys()].some((id) => !seen.has(id)) && Date.now() < until) await sleep(200);
      expect([...acked.keys()].filter((id) => !seen.has(id))).toEqual([]);
      expect(await log.healthy()).toBe(true);
    } finally {
      stop = true;
      await Promise.all(writers);
      await sub.stop();
      await log.close();
    }
  });
});
