import { randomUUID } from 'node:crypto';
// The adapter itself, not @cds/event-log's index: that one loads the Nest module, whose
// ESM build jest's CommonJS runtime cannot load.
import { KafkaEventLog } from '../../libs/event-log/src/kafka';
import { ApiClient, infraEnv, testRun, Topology, TopologyOptions } from '@cds/testing';

export const ADMIN_KEY = 'test-admin-key-0123456789abcdef';
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function uniquePrefix(label: string): string {
  return `fault-${testRun()}-${label}-${randomUUID().slice(0, 6)}`;
}

/** The fault tests write as fast as the deployment answers and then read back every
 * acknowledged id: the per-key rate limit (a per-replica budget) is set out of their way. */
export function startTopology(label: string, extra: Partial<TopologyOptions> = {}): Promise<Topology> {
  return Topology.start({
    prefix: uniquePrefix(label),
    dataDir: `/tmp/cds-${label}`,
    adminKey: ADMIN_KEY,
    ...extra,
    env: { RATE_LIMIT_PER_MINUTE: '10000000', ...extra.env },
  });
}

export async function waitUntil(what: string, condition: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * Concurrent POST /v1/check loops. `acknowledged` holds what the service answered 200
 * for (decisionId -> content): what it promised to keep. A request that fails (the
 * connection dropped, a 5xx) is not acknowledged, and the loop goes on.
 */
export class CheckLoad {
  readonly acknowledged = new Map<string, string>();
  readonly failures: string[] = [];
  private running = true;
  private readonly loops: Promise<void>[];

  /** `pauseMs` between a writer's requests: a steady stream rather than all the
   * deployment can take, where the test is about something else than load. */
  constructor(
    private readonly api: ApiClient,
    writers = 12,
    private readonly pauseMs = 0,
  ) {
    this.loops = Array.from({ length: writers }, (_, w) => this.loop(w));
  }

  private async loop(w: number): Promise<void> {
    for (let i = 0; this.running; i++) {
      const content = `writer ${w} message ${i} ${randomUUID()}`;
      try {
        const r = await this.api.post('/v1/check', { content, policyId: 'default' });
        if (r.status === 200) {
          this.acknowledged.set(r.body.decisionId, content);
          if (this.pauseMs > 0) await sleep(this.pauseMs);
        } else {
          this.failures.push(`${r.status} ${r.text}`);
          await sleep(20);
        }
      } catch (e) {
        this.failures.push(String((e as Error).cause ?? e));
        await sleep(20);
      }
    }
  }

  /** Waits until `n` more checks were acknowledged than when called. */
  async ackMore(n: number, timeoutMs = 60_000): Promise<void> {
    const target = this.acknowledged.size + n;
    await waitUntil(
      `${target} acknowledged checks (have ${this.acknowledged.size}, failures ${this.failures.slice(-3).join(' | ')})`,
      () => this.acknowledged.size >= target,
      timeoutMs,
    );
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

/** The decision.created events of a deployment's log: decisionId -> content, and how many. */
export async function decisionsInLog(prefix: string, brokers = infraEnv().KAFKA_BROKERS): Promise<{ ids: Map<string, string>; events: number }> {
  const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };
  const log = await KafkaEventLog.open({ brokers: brokers.split(','), clientId: 'fault-test-reader', topicPrefix: prefix, logger: quiet });
  try {
    const ids = new Map<string, string>();
    let events = 0;
    for (const [partition, end] of await log.endOffsets('decisions')) {
      for (const s of await log.read('decisions', partition, 0, end)) {
        if (s.event.type !== 'decision.created') continue;
        events++;
        const data = s.event.data as { decisionId: string; content: string };
        ids.set(data.decisionId, data.content);
      }
    }
    return { ids, events };
  } finally {
    await log.close();
  }
}

/** The `video.progress` checkpoints of one video on a deployment's `jobs` topic, in log
 * order (a video's events share its key, so one partition holds them all). */
export async function videoCheckpointsInLog(
  prefix: string,
  decisionId: string,
  brokers = infraEnv().KAFKA_BROKERS,
): Promise<{ framesProcessed: number; frames: unknown[] }[]> {
  const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };
  const log = await KafkaEventLog.open({ brokers: brokers.split(','), clientId: 'fault-test-reader', topicPrefix: prefix, logger: quiet });
  try {
    const checkpoints: { framesProcessed: number; frames: unknown[] }[] = [];
    for (const [partition, end] of await log.endOffsets('jobs')) {
      for (let from = 0; from < end;) {
        const batch = await log.read('jobs', partition, from, end - from);
        if (batch.length === 0) break;
        for (const s of batch) {
          if (s.event.type !== 'video.progress') continue;
          const data = s.event.data as { decisionId: string; framesProcessed: number; frames: unknown[] };
          if (data.decisionId === decisionId) checkpoints.push({ framesProcessed: data.framesProcessed, frames: data.frames });
        }
        from = batch[batch.length - 1].offset + 1;
      }
    }
    return checkpoints;
  } finally {
    await log.close();
  }
}

/** Every decision the read models list for the key's tenant (all pages). */
export async function listedDecisionIds(api: ApiClient): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const r = await api.get(`/v1/decisions?limit=1000&offset=${offset}`);
    if (r.status !== 200) throw new Error(`GET /v1/decisions: ${r.status} ${r.text}`);
    ids.push(...r.body.decisions.map((d: { decisionId: string }) => d.decisionId));
    if (r.body.decisions.length < 1000) return ids;
  }
}

/**
 * What every fault test ends with: each acknowledged decision is in the log with its
 * content, the read models list exactly the decisions of the log (no gap, no duplicate),
 * and each acknowledged one reads back through the api.
 */
export async function expectLogAndReadModelsAgree(topology: Topology, api: ApiClient, acknowledged: Map<string, string>, brokers?: string): Promise<void> {
  const log = await decisionsInLog(topology.options.prefix, brokers);
  expect(log.events).toBe(log.ids.size); // the log holds each decision once
  const missingFromLog = [...acknowledged].filter(([id, content]) => log.ids.get(id) !== content);
  expect(missingFromLog).toEqual([]);

  let listed: string[] = [];
  await waitUntil(
    `the read models to list the ${log.ids.size} decisions of the log`,
    async () => (listed = await listedDecisionIds(api)).length >= log.ids.size,
    60_000,
  ).catch(() => undefined); // the assertions below say what is missing
  expect(listed.length).toBe(new Set(listed).size); // no duplicates
  expect([...listed].sort()).toEqual([...log.ids.keys()].sort()); // no gaps, nothing else

  for (const [id, content] of acknowledged) {
    const r = await api.get(`/v1/decisions/${id}`);
    if (r.status !== 200 || r.body.content !== content) throw new Error(`acknowledged decision ${id}: ${r.status} ${r.text}`);
  }
}
