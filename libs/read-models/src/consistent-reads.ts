import type { EventLog, LogPosition } from '@cds/event-log';
import type { Topic } from '@cds/events';
import { tracing } from '@cds/tracing';
import type { ReadModels } from './read-models.port';
import type { WebhookReadModels } from './webhook-read-models.port';

type QueryMethod = Exclude<keyof ReadModels, 'applyBatch' | 'waitFor' | 'generation' | 'healthy' | 'close' | 'appliedNextOffsets'>;

/** The topics whose events a query reads: it waits until they are applied up to the log's end. */
export const QUERY_TOPICS: Record<QueryMethod | keyof WebhookReadModels, readonly Topic[]> = {
  getDecision: ['decisions'],
  findDecisionByRequestId: ['decisions'],
  listDecisions: ['decisions'],
  getPolicy: ['policies'],
  listPolicies: ['policies'],
  findKeyByHash: ['keys'],
  getKey: ['keys'],
  listKeys: ['keys'],
  getGuardrailDecision: ['guardrails'],
  getSkillPin: ['guardrails'],
  listSessionActions: ['guardrails'],
  getGuardrailPolicy: ['guardrails'],
  getGuardrailPolicyVersion: ['guardrails'],
  listGuardrailPolicyHistory: ['guardrails'],
  guardrailCounts: ['guardrails'],
  getWebhook: ['webhooks', 'deliveries'],
  listWebhooks: ['webhooks', 'deliveries'],
  webhookFailingSince: ['webhooks', 'deliveries'],
  getDelivery: ['deliveries', 'webhooks'],
  listPendingDeliveries: ['deliveries', 'webhooks'],
  listDeliveryAttempts: ['deliveries', 'webhooks'],
  getBatch: ['jobs', 'decisions'],
};

/**
 * One request for a topic's end offsets serves every caller that arrived before it was
 * sent. A caller that arrives while a request is in flight cannot use its answer (its own
 * write may have landed after the request left), so it joins the next one, sent when the
 * current one returns: under load a broker sees one request per round trip, not one per read.
 */
export class CoalescedEnds {
  private running: Promise<Map<number, number>> | null = null;
  private queued: Promise<Map<number, number>> | null = null;

  constructor(private readonly fetch: () => Promise<Map<number, number>>) {}

  get(): Promise<Map<number, number>> {
    if (!this.running) return this.start();
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.start();
      });
    return this.queued;
  }

  private start(): Promise<Map<number, number>> {
    const p = this.fetch().finally(() => {
      if (this.running === p) this.running = null;
    });
    this.running = p;
    return p;
  }
}

/** The end offsets of the log's topics, each asked through its own CoalescedEnds, and
 * bounded in time: a log that does not answer within `timeoutMs` fails the call. A log
 * that keeps its ends in memory (`endOffsetsNow`, the file log) is read at once: no
 * request, no timer. */
export class LogEnds {
  private readonly byTopic = new Map<Topic, CoalescedEnds>();

  constructor(
    private readonly log: Pick<EventLog, 'endOffsets' | 'endOffsetsNow'>,
    private readonly timeoutMs: number,
  ) {}

  get(topic: Topic): Promise<Map<number, number>> {
    const now = this.now(topic);
    if (now) return Promise.resolve(now);
    let e = this.byTopic.get(topic);
    if (!e) this.byTopic.set(topic, (e = new CoalescedEnds(() => this.log.endOffsets(topic))));
    return withTimeout(e.get(), this.timeoutMs);
  }

  /** A topic's end as one comparable string ("partition:end,…"): it changes with every append. */
  async version(topic: Topic): Promise<string> {
    return versionOf(await this.get(topic));
  }

  /** `version`, when the log can tell it at once; undefined when it has to be asked. */
  versionNow(topic: Topic): string | undefined {
    const now = this.now(topic);
    return now ? versionOf(now) : undefined;
  }

  /** The ends the log keeps in memory; null when it has none, or cannot tell them (a
   * closed log: `get` then fails as the log's own `endOffsets` does). */
  private now(topic: Topic): Map<number, number> | null {
    if (!this.log.endOffsetsNow) return null;
    try {
      return this.log.endOffsetsNow(topic);
    } catch {
      return null;
    }
  }
}

function versionOf(ends: Map<number, number>): string {
  let v = '';
  for (const [partition, end] of ends) v += `${partition}:${end},`;
  return v;
}

export interface ConsistentReadsOptions {
  /** How long a query waits for the projection before it reads what is there. */
  waitMs: number;
  /** A query read without knowing it was caught up (`reason` says why). */
  onBehind?: (topics: readonly Topic[], reason: string) => void;
}

/**
 * Read-your-writes without making writes wait for their projection: a write answers once
 * its events are durable on the log, and every query first waits until the read models
 * hold its topics up to the log's end as it was when the query arrived. Whatever any
 * client was told was written before that moment (on this replica or another) is then
 * visible. The end offsets come from the log (in memory for the file log, one coalesced
 * ListOffsets request for Kafka); a log that does not tell its end in time (a broker
 * that is away: nothing can have been written since) or a read model that does not catch
 * up within `waitMs` answers what it has (as a write used to) and `onBehind` is told.
 *
 * Only the query methods are wrapped; `applyBatch`, `waitFor` and the rest go straight to
 * the adapter, so the projector never waits on itself.
 */
export function consistentReadModels(inner: ReadModels, ends: LogEnds, o: ConsistentReadsOptions): ReadModels {
  const caughtUp = async (topics: readonly Topic[]): Promise<void> => {
    let offsets: Map<number, number>[];
    try {
      offsets = await Promise.all(topics.map((t) => ends.get(t)));
    } catch (err) {
      o.onBehind?.(topics, `the log's end is unknown (${(err as Error).message})`);
      return;
    }
    const positions: LogPosition[] = [];
    topics.forEach((topic, i) => {
      for (const [partition, next] of offsets[i]) if (next > 0) positions.push({ topic, partition, offset: next - 1 });
    });
    if (positions.length === 0) return;
    const traces = tracing();
    const wait = () => inner.waitFor(positions, o.waitMs);
    const reached = traces.enabled ? await traces.span('projection.wait', { 'cds.topics': topics.join(',') }, wait) : await wait();
    if (!reached) o.onBehind?.(topics, `the projection did not reach the log's end within ${o.waitMs} ms`);
  };
  const wrapped = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== 'string' || typeof value !== 'function' || prop === 'constructor') return value;
      const topics = (QUERY_TOPICS as Record<string, readonly Topic[] | undefined>)[prop];
      if (!topics) return (value as (...a: unknown[]) => unknown).bind(target);
      let fn = wrapped.get(prop);
      if (!fn) {
        // looked up at each call: an adapter still being opened hands out a new function once open
        fn = async (...args: unknown[]) => {
          await caughtUp(topics);
          return (Reflect.get(target, prop) as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        };
        wrapped.set(prop, fn);
      }
      return fn;
    },
  });
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e instanceof Error ? e : new Error(String(e)))),
    );
  });
}
