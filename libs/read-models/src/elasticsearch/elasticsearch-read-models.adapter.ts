import { Client, estypes, NodeOptions } from '@elastic/elasticsearch';
import { LogPosition } from '@cds/event-log';
import {
  BatchDoc,
  DecisionDoc,
  DecisionFilter,
  DeliveryAttemptDoc,
  DeliveryDoc,
  GuardrailCounts,
  GuardrailDecisionDoc,
  GuardrailSessionActionDoc,
  GuardrailPolicyVersionDoc,
  KeyDoc,
  PolicyDoc,
  WebhookDoc,
} from '../documents';
import { PositionWaiters } from '../position-waiters';
import { ProjectedEvent, ReadModels } from '../read-models.port';
import type { GenerationLoad, LiveGenerations } from '../generations.port';
import { ElasticsearchGenerationLoad } from './es-generation-load';
import { PendingCursor } from '../webhook-read-models.port';
import { bulkOperations, failuresOf, ReadModelsLogger } from './es-bulk';
import { asUnavailable, isNotFound } from './es-errors';
import {
  addMissingFields,
  addMissingIndices,
  ADMIN_REQUEST,
  claimPromotion,
  createGenerationIndices,
  deleteGeneration,
  GenerationRaceError,
  IndexSettings,
  pendingPromotion,
  requestPromotion,
  servedGeneration,
  swapAliases,
} from './es-generations';
import { aliasName, DOC_TYPES, docId, DocType, indexName, newGenerationName } from './es-index-layout';
import { decisionSearch, guardrailCountsOf, guardrailCountsSearch } from './es-queries';
import {
  EsDecision,
  EsDeliveryAttempt,
  EsGuardrailPolicyVersion,
  fromEsDecision,
  fromEsDeliveryAttempt,
  fromEsGuardrailPolicyVersion,
  planWrites,
  refKey,
  refsToRead,
  StoredDoc,
} from './es-write-plan';
import { attemptWithStatusSearch, deliveryAttemptsSearch, liveWebhooksSearch, pendingDeliveriesSearch } from './es-webhook-queries';
import { Partition, PositionPoller } from './position-poller';
import { CoalescedRefresh } from './coalesced-refresh';

export interface ElasticsearchReadModelsOptions {
  node: string;
  /** Indices are `<prefix>-<type>-<generation>`, served through aliases `<prefix>-<type>`. */
  indexPrefix: string;
  logger?: ReadModelsLogger;
  /** Of each created index (defaults 1 and 0: a single node). */
  shards?: number;
  replicas?: number;
  /** Per request (default 10 s); health checks and position polls use shorter ones. */
  requestTimeoutMs?: number;
  /** How often `waitFor` reads the stored positions (default 10 ms). */
  pollIntervalMs?: number;
}

const CONSOLE: ReadModelsLogger = {
  log: (m) => console.log(`[ReadModels] ${m}`),
  warn: (m) => console.warn(`[ReadModels] ${m}`),
  error: (m) => console.error(`[ReadModels] ${m}`),
};
const LIST_MAX = 10_000;

/**
 * Read models on Elasticsearch. A generation is one index per document type; the served
 * one is behind the aliases. Writes go to this instance's generation by concrete index
 * name (so a rebuild can fill a generation nobody reads yet); reads of a served instance
 * go through the aliases, so every process follows a promote at once.
 *
 * Positions (next offset per topic/partition) are documents of the generation, written
 * after the batch's documents: a crash in between re-applies the batch, which changes
 * nothing (see es-write-plan). Any process can wait for them (`waitFor` polls them).
 *
 * The projector does not refresh after its batches (reads by id are realtime; a forced
 * refresh per batch was most of its cost). A search refreshes its index first when this
 * process has learnt of writes since that index's last refresh began: it wrote them
 * itself, or it saw their positions stored (which every query's wait for the log's end
 * does), so what a reader waited for is what it finds. Refreshes are shared by
 * concurrent searches (CoalescedRefresh).
 */
export class ElasticsearchReadModels implements ReadModels, LiveGenerations {
  private applied = new PositionWaiters();
  private readonly refresher = new CoalescedRefresh(async (index) => {
    await this.client.indices.refresh({ index });
  });
  private readonly poller: PositionPoller;
  private readonly logger: ReadModelsLogger;
  /** Bumped whenever this process learns of documents written (by itself, or by the
   * positions it saw stored); per index, the mark as of its last refresh's start. */
  private writeMark = 1; // a process that just started refreshes each index once first
  private readonly refreshedMark = new Map<string, number>();

  private constructor(
    private readonly client: Client,
    private readonly o: ElasticsearchReadModelsOptions,
    private gen: string,
    private served: boolean,
  ) {
    this.logger = o.logger ?? CONSOLE;
    this.poller = new PositionPoller(
      (ps) => this.storedNextOffsets(ps, true),
      (ps) => this.applied.reached(ps),
      o.pollIntervalMs ?? 10,
      () => (this.writeMark += 1),
    );
  }

  /** Serve the current generation, creating the first one when there is none. */
  static async open(o: ElasticsearchReadModelsOptions): Promise<ElasticsearchReadModels> {
    const client = newClient(o);
    try {
      for (;;) {
        const current = await servedGeneration(client, o.indexPrefix);
        if (current) {
          const added = await addMissingIndices(client, o.indexPrefix, current, settingsOf(o));
          await addMissingFields(client, o.indexPrefix, current);
          if (added.length > 0) {
            (o.logger ?? CONSOLE).warn(
              `read-model generation ${current} had no ${added.join(', ')} indices: created empty; rebuild the read models if their events were logged before`,
            );
          }
          return await new ElasticsearchReadModels(client, o, current, true).loadPositions();
        }
        const gen = newGenerationName();
        await createGenerationIndices(client, o.indexPrefix, gen, settingsOf(o));
        try {
          await swapAliases(client, o.indexPrefix, gen, null);
          (o.logger ?? CONSOLE).log(`created the first read-model generation ${gen} (prefix ${o.indexPrefix})`);
          return new ElasticsearchReadModels(client, o, gen, true);
        } catch (err) {
          // Another process bootstrapped at the same moment: serve its generation.
          await deleteGeneration(client, o.indexPrefix, gen);
          if (!(err instanceof GenerationRaceError)) throw err;
        }
      }
    } catch (err) {
      await client.close();
      throw err;
    }
  }

  /** A fresh, empty generation that is not served until `promote()`. */
  static async createGeneration(o: ElasticsearchReadModelsOptions): Promise<ElasticsearchReadModels> {
    const client = newClient(o);
    const gen = newGenerationName();
    try {
      await createGenerationIndices(client, o.indexPrefix, gen, settingsOf(o));
    } catch (err) {
      await client.close();
      throw err;
    }
    return new ElasticsearchReadModels(client, o, gen, false);
  }

  /** An unserved generation that exists (a rebuild loaded it), to write on from its stored positions. */
  static async openUnserved(o: ElasticsearchReadModelsOptions, gen: string): Promise<ElasticsearchReadModels> {
    const client = newClient(o);
    try {
      return await new ElasticsearchReadModels(client, o, gen, false).loadPositions();
    } catch (err) {
      await client.close();
      throw err;
    }
  }

  /** A fresh generation to load (a rebuild): its indices created, no alias on them. */
  static async createGenerationLoad(o: ElasticsearchReadModelsOptions): Promise<ElasticsearchGenerationLoad> {
    return new ElasticsearchGenerationLoad(await ElasticsearchReadModels.createGeneration(o));
  }

  /** A generation a rebuild loaded and asked to promote, opened by the projector that took the request. */
  async openGeneration(gen: string): Promise<GenerationLoad> {
    return new ElasticsearchGenerationLoad(await ElasticsearchReadModels.openUnserved(this.o, gen));
  }

  /** Serve this generation from now on (one atomic alias swap) and delete the one it replaces. */
  async promote(): Promise<void> {
    const previous = await servedGeneration(this.client, this.o.indexPrefix);
    if (previous === this.gen) return;
    // Searches through the aliases find the whole generation from the swap on.
    await this.client.indices.refresh({ index: DOC_TYPES.map((t) => this.writeIndex(t)) }, ADMIN_REQUEST);
    await swapAliases(this.client, this.o.indexPrefix, this.gen, previous);
    this.writeMark += 1;
    this.served = true;
    if (previous) await deleteGeneration(this.client, this.o.indexPrefix, previous);
    this.logger.log(`read-model generation ${this.gen} promoted${previous ? `, ${previous} deleted` : ''}`);
  }

  /** Ask the live projector to promote this (unserved) generation: see es-generations. */
  async requestPromotion(): Promise<void> {
    await requestPromotion(this.client, this.o.indexPrefix, this.gen);
  }

  async pendingPromotion(): Promise<{ generation: string; claim: () => Promise<boolean> } | null> {
    const req = await pendingPromotion(this.client, this.o.indexPrefix);
    return req && { generation: req.generation, claim: () => claimPromotion(this.client, this.o.indexPrefix, req) };
  }

  appliedNextOffsets(): Map<string, number> {
    return this.applied.snapshot();
  }

  /** Delete this generation, unless it is served (an abandoned rebuild). */
  async discard(): Promise<void> {
    if ((await servedGeneration(this.client, this.o.indexPrefix)) === this.gen) return;
    await deleteGeneration(this.client, this.o.indexPrefix, this.gen);
  }

  /** The generation this instance writes into (the projector names its group after it). */
  liveGenerations(): this {
    return this;
  }

  encodedApply(): null {
    return null;
  }

  generation(): string {
    return this.gen;
  }

  /** The generation the aliases point at now: differs from `generation()` once a rebuild elsewhere promoted. */
  async servedGeneration(): Promise<string | null> {
    return servedGeneration(this.client, this.o.indexPrefix);
  }

  /**
   * Write into the served generation `gen` from now on, starting from its stored
   * positions (the caller stops feeding batches first, then feeds the log again: what is
   * below those positions is skipped). What is left of the generation written so far is
   * deleted: the promote deleted it, but a batch in flight then may have re-created an index.
   */
  async switchGeneration(gen: string): Promise<void> {
    const previous = this.gen;
    this.applied.cancelAll();
    this.applied = new PositionWaiters();
    this.gen = gen;
    this.writeMark += 1;
    this.served = true;
    await this.loadPositions();
    if (previous !== gen) await deleteGeneration(this.client, this.o.indexPrefix, previous);
    this.logger.log(`switched from read-model generation ${previous} to ${gen}`);
  }

  private async loadPositions(): Promise<this> {
    // Positions are read by id elsewhere, so nothing refreshed them for a search yet.
    await this.client.indices.refresh({ index: this.writeIndex('positions') });
    const res = await this.client.search<{ topic: string; partition: number; nextOffset: number }>({
      index: this.writeIndex('positions'),
      size: LIST_MAX,
      query: { match_all: {} },
    });
    for (const h of res.hits.hits) this.applied.advance(h._source!.topic, h._source!.partition, h._source!.nextOffset);
    return this;
  }

  async applyBatch(batch: ProjectedEvent[]): Promise<void> {
    // Below the stored position of its partition an event is applied already.
    const fresh = batch.filter((e) => !this.applied.reached([e]));
    if (fresh.length > 0) {
      const refs = refsToRead(fresh);
      const stored = refs.length > 0 ? await this.mgetWritten(refs) : new Map<string, StoredDoc>();
      const writes = planWrites(fresh, stored);
      if (writes.length > 0) {
        const ops = bulkOperations(writes, (type) => this.writeIndex(type));
        const res = await this.client.bulk({ operations: ops });
        this.writeMark += 1;
        this.checkBulk(res, 'documents');
      }
    }
    await this.storePositions(batch);
  }

  private async storePositions(batch: ProjectedEvent[]): Promise<void> {
    const next = new Map<string, { topic: string; partition: number; nextOffset: number }>();
    for (const e of batch) {
      const k = `${e.topic}:${e.partition}`;
      if ((next.get(k)?.nextOffset ?? 0) < e.offset + 1) next.set(k, { topic: e.topic, partition: e.partition, nextOffset: e.offset + 1 });
    }
    const moved = [...next.values()].filter(
      (p) => !this.applied.reached([{ topic: p.topic as LogPosition['topic'], partition: p.partition, offset: p.nextOffset - 1 }]),
    );
    if (moved.length === 0) return;
    const res = await this.client.bulk({
      operations: moved.flatMap((p) => [
        // External version = next offset: a position never moves back, even replayed.
        { index: { _index: this.writeIndex('positions'), _id: `${p.topic}:${p.partition}`, version: p.nextOffset, version_type: 'external' as const } },
        p,
      ]),
    });
    this.checkBulk(res, 'positions');
    for (const p of moved) this.applied.advance(p.topic, p.partition, p.nextOffset);
    this.poller.poke();
  }

  /** 409s mean "already applied"; documents the node refuses outright are parked (logged);
   * anything else (node busy, shard unavailable) throws so the batch is retried. */
  private checkBulk(res: estypes.BulkResponse, what: string): void {
    if (!res.errors) return;
    const { retry, parked } = failuresOf(res);
    for (const p of parked) this.logger.error(`parked ${what} write ${p}`);
    if (retry.length > 0) throw new Error(`Elasticsearch refused ${retry.length} ${what} writes, retrying the batch: ${retry.slice(0, 3).join('; ')}`);
  }

  /** Realtime reads (mget sees what a bulk wrote before any refresh), with the versions. */
  private async mgetWritten(refs: { type: DocType; id: string }[]): Promise<Map<string, StoredDoc>> {
    const res = await this.client.mget<object>({ docs: refs.map((r) => ({ _index: this.writeIndex(r.type), _id: r.id })) });
    const out = new Map<string, StoredDoc>();
    res.docs.forEach((d, i) => {
      if ('error' in d) throw new Error(`cannot read ${refs[i].type}/${refs[i].id}: ${JSON.stringify(d.error)}`);
      if (d.found && d._source) out.set(refKey(refs[i].type, refs[i].id), { doc: d._source, version: d._version ?? 1 });
    });
    return out;
  }

  waitFor(positions: LogPosition[], timeoutMs: number): Promise<boolean> {
    return this.poller.waitFor(positions, timeoutMs);
  }

  /** Next offset per partition as stored in the served (or, unpromoted, this) generation. */
  private async storedNextOffsets(partitions: Partition[], quick = false): Promise<Map<string, number>> {
    const res = await this.client.mget<{ nextOffset: number }>(
      { index: this.readIndex('positions'), ids: partitions.map((p) => `${p.topic}:${p.partition}`) },
      quick ? { requestTimeout: 1000, maxRetries: 0 } : {},
    );
    const out = new Map<string, number>();
    for (const d of res.docs) if ('found' in d && d.found && d._source) out.set(d._id, d._source.nextOffset);
    return out;
  }

  async getDecision(tenantId: string, decisionId: string): Promise<DecisionDoc | null> {
    const s = await this.getSource<EsDecision>('decisions', docId(tenantId, decisionId), tenantId);
    return s && fromEsDecision(s);
  }

  async findDecisionByRequestId(tenantId: string, requestId: string): Promise<DecisionDoc | null> {
    const [s] = await this.search<EsDecision>('decisions', {
      query: { bool: { filter: [{ term: { tenantId } }, { term: { requestId } }] } },
      sort: [{ pos: 'asc' }, { partition: 'asc' }],
      size: 1,
    });
    return s ? fromEsDecision(s) : null;
  }

  async listDecisions(tenantId: string, filter: DecisionFilter): Promise<DecisionDoc[]> {
    return (await this.search<EsDecision>('decisions', decisionSearch(tenantId, filter))).map(fromEsDecision);
  }

  getPolicy(tenantId: string, policyId: string): Promise<PolicyDoc | null> {
    return this.getSource<PolicyDoc>('policies', docId(tenantId, policyId), tenantId);
  }

  listPolicies(tenantId: string): Promise<PolicyDoc[]> {
    return this.search<PolicyDoc>('policies', { query: { term: { tenantId } }, sort: [{ policyId: 'asc' }], size: LIST_MAX });
  }

  async findKeyByHash(hash: string): Promise<KeyDoc | null> {
    const [k] = await this.search<KeyDoc>('keys', { query: { term: { hash } }, size: 1 });
    return k ?? null;
  }

  getKey(tenantId: string, keyId: string): Promise<KeyDoc | null> {
    return this.getSource<KeyDoc>('keys', docId(tenantId, keyId), tenantId);
  }

  listKeys(tenantId: string): Promise<KeyDoc[]> {
    return this.search<KeyDoc>('keys', { query: { term: { tenantId } }, sort: [{ createdAt: 'asc' }, { keyId: 'asc' }], size: LIST_MAX });
  }

  getGuardrailDecision(tenantId: string, decisionId: string): Promise<GuardrailDecisionDoc | null> {
    return this.getSource<GuardrailDecisionDoc>('guardrail_decisions', docId(tenantId, decisionId), tenantId);
  }

  async listSessionActions(tenantId: string, sessionId: string, limit: number): Promise<GuardrailSessionActionDoc[]> {
    const hits = await this.search<GuardrailDecisionDoc>('guardrail_decisions', {
      query: { bool: { filter: [{ term: { tenantId } }, { term: { 'session.sessionId': sessionId } }, { term: { kind: 'action_authorization' } }] } },
      sort: [{ timestamp: 'desc' }, { decisionId: 'desc' }],
      _source: ['decisionId', 'timestamp', 'request.actionType', 'request.command', 'request.targetPath', 'categories', 'session.facts'],
      size: limit,
    });
    return hits.map((d) => ({
      decisionId: d.decisionId,
      timestamp: d.timestamp,
      actionType: String(d.request?.actionType ?? ''),
      command: String(d.request?.command ?? ''),
      targetPath: String(d.request?.targetPath ?? ''),
      categories: d.categories ?? [],
      facts: d.session?.facts ?? [],
    }));
  }

  async getSkillPin(tenantId: string, projectId: string | null, skillId: string): Promise<GuardrailDecisionDoc | null> {
    const filter: estypes.QueryDslQueryContainer[] = [{ term: { tenantId } }, { term: { 'skill.skillId': skillId } }, { term: { kind: 'skill_vetting' } }];
    const project: estypes.QueryDslQueryContainer = projectId === null ? { bool: { must_not: { exists: { field: 'projectId' } } } } : { term: { projectId } };
    const [accepted] = await this.search<GuardrailDecisionDoc>('guardrail_decisions', {
      query: { bool: { filter: [...filter, project, { term: { requiresApproval: false } }] } },
      sort: [{ timestamp: 'desc' }, { decisionId: 'desc' }],
      size: 1,
    });
    if (accepted) return accepted;
    const [first] = await this.search<GuardrailDecisionDoc>('guardrail_decisions', {
      query: { bool: { filter: [...filter, project] } },
      sort: [{ timestamp: 'asc' }, { decisionId: 'asc' }],
      size: 1,
    });
    return first ?? null;
  }

  async getGuardrailPolicy(tenantId: string, projectId: string): Promise<GuardrailPolicyVersionDoc | null> {
    const [v] = await this.policyVersions(tenantId, projectId, 1);
    return v ?? null;
  }

  async getGuardrailPolicyVersion(tenantId: string, projectId: string, version: string): Promise<GuardrailPolicyVersionDoc | null> {
    const s = await this.getSource<EsGuardrailPolicyVersion>('guardrail_policy_versions', docId(tenantId, projectId, version), tenantId);
    return s && fromEsGuardrailPolicyVersion(s);
  }

  listGuardrailPolicyHistory(tenantId: string, projectId: string): Promise<GuardrailPolicyVersionDoc[]> {
    return this.policyVersions(tenantId, projectId, LIST_MAX);
  }

  private async policyVersions(tenantId: string, projectId: string, size: number): Promise<GuardrailPolicyVersionDoc[]> {
    const hits = await this.search<EsGuardrailPolicyVersion>('guardrail_policy_versions', {
      query: { bool: { filter: [{ term: { tenantId } }, { term: { projectId } }] } },
      sort: [{ pos: 'desc' }, { partition: 'desc' }],
      size,
    });
    return hits.map(fromEsGuardrailPolicyVersion);
  }

  async guardrailCounts(tenantId: string, projectId: string, from: string, to: string): Promise<GuardrailCounts> {
    const res = await asUnavailable(async () => {
      await this.searchable('guardrail_decisions');
      return this.client.search({ index: this.readIndex('guardrail_decisions'), ...guardrailCountsSearch(tenantId, projectId, from, to) });
    });
    return guardrailCountsOf(res.aggregations as Record<string, unknown> | undefined);
  }

  async getWebhook(tenantId: string, webhookId: string): Promise<WebhookDoc | null> {
    const w = await this.getSource<WebhookDoc>('webhooks', docId(tenantId, webhookId), tenantId);
    return w && !w.deletedAt ? w : null;
  }

  listWebhooks(tenantId: string): Promise<WebhookDoc[]> {
    return this.search<WebhookDoc>('webhooks', liveWebhooksSearch(tenantId));
  }

  getDelivery(tenantId: string, deliveryId: string): Promise<DeliveryDoc | null> {
    return this.getSource<DeliveryDoc>('deliveries', docId(tenantId, deliveryId), tenantId);
  }

  listPendingDeliveries(limit: number, after?: PendingCursor | null): Promise<DeliveryDoc[]> {
    return this.search<DeliveryDoc>('deliveries', pendingDeliveriesSearch(limit, after));
  }

  async listDeliveryAttempts(tenantId: string, webhookId: string, limit: number): Promise<DeliveryAttemptDoc[]> {
    return (await this.search<EsDeliveryAttempt>('delivery_attempts', deliveryAttemptsSearch(tenantId, webhookId, limit))).map(fromEsDeliveryAttempt);
  }

  async webhookFailingSince(tenantId: string, webhookId: string, notBefore?: string | null): Promise<string | null> {
    const [lastOk] = await this.search<EsDeliveryAttempt>('delivery_attempts', attemptWithStatusSearch(tenantId, webhookId, 'succeeded', 'desc'));
    const [firstFailed] = await this.search<EsDeliveryAttempt>(
      'delivery_attempts',
      attemptWithStatusSearch(tenantId, webhookId, 'failed', 'asc', lastOk?.timestamp ?? null, notBefore ?? null),
    );
    return firstFailed?.timestamp ?? null;
  }

  getBatch(tenantId: string, batchId: string): Promise<BatchDoc | null> {
    return this.getSource<BatchDoc>('batches', docId(tenantId, batchId), tenantId);
  }

  async healthy(): Promise<boolean> {
    try {
      const h = await this.client.cluster.health({ timeout: '1s' }, { requestTimeout: 1500, maxRetries: 0 });
      return h.status !== 'red';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.poller.cancelAll();
    this.applied.cancelAll();
    await this.client.close();
  }

  private writeIndex(type: DocType): string {
    return indexName(this.o.indexPrefix, type, this.gen);
  }

  private readIndex(type: DocType): string {
    return this.served ? aliasName(this.o.indexPrefix, type) : this.writeIndex(type);
  }

  private async getSource<T extends { tenantId: string }>(type: DocType, id: string, tenantId: string): Promise<T | null> {
    return asUnavailable(async () => {
      try {
        const res = await this.client.get<T>({ index: this.readIndex(type), id });
        return res._source && res._source.tenantId === tenantId ? res._source : null;
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    });
  }

  private async search<T>(type: DocType, req: Omit<estypes.SearchRequest, 'index'>): Promise<T[]> {
    const res = await asUnavailable(async () => {
      await this.searchable(type);
      return this.client.search<T>({ index: this.readIndex(type), ...req });
    });
    return res.hits.hits.map((h) => h._source!);
  }

  /** Refresh the index first when this process learnt of writes since its last refresh began. */
  private async searchable(type: DocType): Promise<void> {
    const index = this.readIndex(type);
    const mark = this.writeMark;
    if ((this.refreshedMark.get(index) ?? 0) >= mark) return;
    await this.refresher.after([index]);
    if ((this.refreshedMark.get(index) ?? 0) < mark) this.refreshedMark.set(index, mark);
  }
}

/**
 * The client of one process. A request can ask for a shorter timeout than its connection's,
 * never a longer one: the connection's is also undici's own headers and body timeout, under
 * every request. So the connection gets index management's patience (ADMIN_REQUEST) and the
 * document timeout is what each request gets unless it asks otherwise. (Given to the client
 * as its requestTimeout, it cut every index creation at 10 s on a loaded node.)
 */
export function newClient(o: Pick<ElasticsearchReadModelsOptions, 'node' | 'requestTimeoutMs'>): Client {
  // `timeout` is the transport's connection option, which the client passes on from a node's.
  const node: NodeOptions & { timeout: number } = { url: new URL(o.node), timeout: ADMIN_REQUEST.requestTimeout };
  return new Client({ node, requestTimeout: o.requestTimeoutMs ?? 10_000, maxRetries: 1 });
}

function settingsOf(o: ElasticsearchReadModelsOptions): IndexSettings {
  return { shards: o.shards ?? 1, replicas: o.replicas ?? 0 };
}
