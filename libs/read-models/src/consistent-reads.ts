import type { EventLog, LogPosition } from '@cds/event-log';
import type { Topic } from '@cds/events';
import { tracing } from '@cds/tracing';
import type { EncodedApply, ProjectedEvent, ReadModels } from './read-models.port';
import type { LiveGenerations } from './generations.port';

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
 * hold the topics it reads up to the log's end as it was when the query arrived. Whatever
 * any client was told was written before that moment (on this replica or another) is
 * then visible. The end offsets come from the log (in memory for the file log, one
 * coalesced ListOffsets request for Kafka); a log that does not tell its end in time (a
 * broker that is away: nothing can have been written since) or a read model that does not
 * catch up within `waitMs` answers what it has (as a write used to) and `onBehind` is told.
 *
 * Each query names the topics it reads; `applyBatch`, `waitFor` and the rest go straight
 * to the adapter, so the projector never waits on itself.
 */
export class ConsistentReadModels implements ReadModels {
  constructor(
    private readonly adapter: ReadModels,
    private readonly ends: LogEnds,
    private readonly o: ConsistentReadsOptions,
  ) {}

  getDecision(...a: Parameters<ReadModels['getDecision']>) {
    return this.fresh(['decisions'], () => this.adapter.getDecision(...a));
  }
  findDecisionByRequestId(...a: Parameters<ReadModels['findDecisionByRequestId']>) {
    return this.fresh(['decisions'], () => this.adapter.findDecisionByRequestId(...a));
  }
  listDecisions(...a: Parameters<ReadModels['listDecisions']>) {
    return this.fresh(['decisions'], () => this.adapter.listDecisions(...a));
  }
  getPolicy(...a: Parameters<ReadModels['getPolicy']>) {
    return this.fresh(['policies'], () => this.adapter.getPolicy(...a));
  }
  listPolicies(...a: Parameters<ReadModels['listPolicies']>) {
    return this.fresh(['policies'], () => this.adapter.listPolicies(...a));
  }
  findKeyByHash(...a: Parameters<ReadModels['findKeyByHash']>) {
    return this.fresh(['keys'], () => this.adapter.findKeyByHash(...a));
  }
  getKey(...a: Parameters<ReadModels['getKey']>) {
    return this.fresh(['keys'], () => this.adapter.getKey(...a));
  }
  listKeys(...a: Parameters<ReadModels['listKeys']>) {
    return this.fresh(['keys'], () => this.adapter.listKeys(...a));
  }
  getGuardrailDecision(...a: Parameters<ReadModels['getGuardrailDecision']>) {
    return this.fresh(['guardrails'], () => this.adapter.getGuardrailDecision(...a));
  }
  getSkillPin(...a: Parameters<ReadModels['getSkillPin']>) {
    return this.fresh(['guardrails'], () => this.adapter.getSkillPin(...a));
  }
  listSessionActions(...a: Parameters<ReadModels['listSessionActions']>) {
    return this.fresh(['guardrails'], () => this.adapter.listSessionActions(...a));
  }
  getGuardrailPolicy(...a: Parameters<ReadModels['getGuardrailPolicy']>) {
    return this.fresh(['guardrails'], () => this.adapter.getGuardrailPolicy(...a));
  }
  getGuardrailPolicyVersion(...a: Parameters<ReadModels['getGuardrailPolicyVersion']>) {
    return this.fresh(['guardrails'], () => this.adapter.getGuardrailPolicyVersion(...a));
  }
  listGuardrailPolicyHistory(...a: Parameters<ReadModels['listGuardrailPolicyHistory']>) {
    return this.fresh(['guardrails'], () => this.adapter.listGuardrailPolicyHistory(...a));
  }
  guardrailCounts(...a: Parameters<ReadModels['guardrailCounts']>) {
    return this.fresh(['guardrails'], () => this.adapter.guardrailCounts(...a));
  }
  // A webhook's document carries its deliveries' state, a delivery its webhook's.
  getWebhook(...a: Parameters<ReadModels['getWebhook']>) {
    return this.fresh(['webhooks', 'deliveries'], () => this.adapter.getWebhook(...a));
  }
  listWebhooks(...a: Parameters<ReadModels['listWebhooks']>) {
    return this.fresh(['webhooks', 'deliveries'], () => this.adapter.listWebhooks(...a));
  }
  webhookFailingSince(...a: Parameters<ReadModels['webhookFailingSince']>) {
    return this.fresh(['webhooks', 'deliveries'], () => this.adapter.webhookFailingSince(...a));
  }
  getDelivery(...a: Parameters<ReadModels['getDelivery']>) {
    return this.fresh(['deliveries', 'webhooks'], () => this.adapter.getDelivery(...a));
  }
  listPendingDeliveries(...a: Parameters<ReadModels['listPendingDeliveries']>) {
    return this.fresh(['deliveries', 'webhooks'], () => this.adapter.listPendingDeliveries(...a));
  }
  listDeliveryAttempts(...a: Parameters<ReadModels['listDeliveryAttempts']>) {
    return this.fresh(['deliveries', 'webhooks'], () => this.adapter.listDeliveryAttempts(...a));
  }
  // A batch's items are decisions.
  getBatch(...a: Parameters<ReadModels['getBatch']>) {
    return this.fresh(['jobs', 'decisions'], () => this.adapter.getBatch(...a));
  }

  applyBatch(batch: ProjectedEvent[]): Promise<void> {
    return this.adapter.applyBatch(batch);
  }
  waitFor(positions: LogPosition[], timeoutMs: number): Promise<boolean> {
    return this.adapter.waitFor(positions, timeoutMs);
  }
  generation(): string {
    return this.adapter.generation();
  }
  appliedNextOffsets(): Map<string, number> {
    return this.adapter.appliedNextOffsets();
  }
  liveGenerations(): (ReadModels & LiveGenerations) | null {
    return this.adapter.liveGenerations();
  }
  encodedApply(): EncodedApply | null {
    return this.adapter.encodedApply();
  }
  healthy(): Promise<boolean> {
    return this.adapter.healthy();
  }
  close(): Promise<void> {
    return this.adapter.close();
  }

  /** `read` once the read models hold `topics` up to the log's end as it is now. */
  private async fresh<T>(topics: readonly Topic[], read: () => Promise<T>): Promise<T> {
    await this.caughtUp(topics);
    return read();
  }

  private async caughtUp(topics: readonly Topic[]): Promise<void> {
    let offsets: Map<number, number>[];
    try {
      offsets = await Promise.all(topics.map((t) => this.ends.get(t)));
    } catch (err) {
      this.o.onBehind?.(topics, `the log's end is unknown (${(err as Error).message})`);
      return;
    }
    const positions: LogPosition[] = [];
    topics.forEach((topic, i) => {
      for (const [partition, next] of offsets[i]) if (next > 0) positions.push({ topic, partition, offset: next - 1 });
    });
    if (positions.length === 0) return;
    const traces = tracing();
    const wait = () => this.adapter.waitFor(positions, this.o.waitMs);
    const reached = traces.enabled ? await traces.span('projection.wait', { 'cds.topics': topics.join(',') }, wait) : await wait();
    if (!reached) this.o.onBehind?.(topics, `the projection did not reach the log's end within ${this.o.waitMs} ms`);
  }
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
