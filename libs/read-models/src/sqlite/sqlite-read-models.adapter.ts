import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EncodedEvent, LogPosition } from '@cds/event-log';
import {
  BatchDoc,
  DecisionDoc,
  DecisionFilter,
  DeliveryAttemptDoc,
  DeliveryDoc,
  GuardrailCounts,
  GuardrailDayCounts,
  GuardrailDecisionDoc,
  GuardrailSessionActionDoc,
  GuardrailPolicyVersionDoc,
  KeyDoc,
  PolicyDoc,
  WebhookDoc,
} from '../documents';
import { EncodedApply, ProjectedEvent, ReadModels } from '../read-models.port';
import { PositionWaiters } from '../position-waiters';
import { PendingCursor } from '../webhook-read-models.port';
import { SqliteWebhookStore, WEBHOOK_SCHEMA } from './sqlite-webhooks.store';
import { guardrailPoliciesOf, guardrailPolicyKey, readDecisionRow, rowsOf, RowsAt } from './sqlite-rows';
import { AppliedBatch, SqliteProjectionWriter } from './sqlite-projection-writer';
import { LRUCache } from 'lru-cache';

/** Where an applied batch left a partition: the next offset to apply. */
export interface AppliedPosition {
  topic: string;
  partition: number;
  next: number;
}

/** What applying a batch of rows changed. */
export interface AppliedRows {
  advanced: AppliedPosition[];
  /** The projects given a new guardrail policy version (guardrailPolicyKey). */
  guardrailPolicies: string[];
}

const TABLES = `
CREATE TABLE IF NOT EXISTS decisions (
  decision_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, request_id TEXT, ts TEXT NOT NULL,
  action TEXT NOT NULL, policy_id TEXT NOT NULL, pos INTEGER NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS policies (
  tenant_id TEXT NOT NULL, policy_id TEXT NOT NULL, pos INTEGER NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (tenant_id, policy_id));
CREATE TABLE IF NOT EXISTS keys (
  key_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, hash TEXT NOT NULL, pos INTEGER NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS guardrail_decisions (
  decision_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, project_id TEXT, ts TEXT NOT NULL, kind TEXT NOT NULL,
  action TEXT NOT NULL, requires_approval INTEGER NOT NULL, pos INTEGER NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS guardrail_policy_versions (
  tenant_id TEXT NOT NULL, project_id TEXT NOT NULL, version TEXT NOT NULL, pos INTEGER NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (tenant_id, project_id, version));
CREATE TABLE IF NOT EXISTS positions (topic TEXT NOT NULL, part INTEGER NOT NULL, next_offset INTEGER NOT NULL,
  PRIMARY KEY (topic, part));
`;

/** How many projects' current guardrail policies (or their absence) are kept (all are dropped when full). */
const CURRENT_POLICIES_KEPT = 10_000;

/** A bulk load's page cache: the primary keys' pages (random UUIDs) stay in memory. */
const BULK_CACHE_KIB = 64 * 1024;

/** How many events a bulk load applies between two background syncs of its file. */
const BULK_SYNC_EVENTS = 4000;

/** Secondary indexes: a rebuilt generation gets them after its replay, built in one pass each. */
const INDEXES = `
CREATE INDEX IF NOT EXISTS decisions_by_tenant_time ON decisions (tenant_id, ts DESC, pos DESC);
-- The list filtered by action or policy reads its matches in list order instead of looking
-- through the whole tenant for them (a value that matches nothing: 130-260 ms at 100 000
-- decisions without these, see BENCHMARKS.md, bench:decisions).
CREATE INDEX IF NOT EXISTS decisions_by_action ON decisions (tenant_id, action, ts DESC, pos DESC);
CREATE INDEX IF NOT EXISTS decisions_by_policy ON decisions (tenant_id, policy_id, ts DESC, pos DESC);
CREATE INDEX IF NOT EXISTS decisions_by_request ON decisions (tenant_id, request_id) WHERE request_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS keys_by_hash ON keys (hash);
CREATE INDEX IF NOT EXISTS keys_by_tenant ON keys (tenant_id);
CREATE INDEX IF NOT EXISTS guardrail_decisions_by_project ON guardrail_decisions (tenant_id, project_id, ts);
CREATE INDEX IF NOT EXISTS guardrail_policy_versions_by_pos ON guardrail_policy_versions (tenant_id, project_id, pos DESC);
CREATE INDEX IF NOT EXISTS guardrail_decisions_by_skill ON guardrail_decisions (tenant_id, json_extract(body, '$.skill.skillId'), ts, pos)
  WHERE kind = 'skill_vetting';
CREATE INDEX IF NOT EXISTS guardrail_decisions_by_session ON guardrail_decisions (tenant_id, json_extract(body, '$.session.sessionId'), ts, pos)
  WHERE kind = 'action_authorization';
`;

/**
 * Read models in one SQLite file per generation under `<dir>/`, the served one named
 * by `<dir>/CURRENT`. Positions are committed in the same transaction as the
 * documents, so a crash never leaves them apart.
 */
export class SqliteReadModels implements ReadModels, EncodedApply {
  private readonly waiters = new PositionWaiters();
  private readonly stmts: ReturnType<SqliteReadModels['prepare']>;
  private readonly webhooks: SqliteWebhookStore;
  private syncing: Promise<unknown> | null = null;
  private writer: SqliteProjectionWriter | null = null;
  private closed = false;
  private eventsSinceSync = 0;
  /** the current policy of a project, or that it has none (`doc: null`) */
  private readonly currentGuardrailPolicies = new LRUCache<string, { doc: GuardrailPolicyVersionDoc | null }>({ max: CURRENT_POLICIES_KEPT });

  private constructor(
    private readonly db: Database.Database,
    private readonly dir: string,
    private readonly gen: string,
    /** Written as a bulk load (see createGeneration) until promoted. */
    private bulk: boolean,
  ) {
    this.stmts = this.prepare();
    this.webhooks = new SqliteWebhookStore(db);
    for (const row of this.db.prepare('SELECT topic, part, next_offset FROM positions').all() as any[]) {
      this.waiters.advance(row.topic, row.part, row.next_offset);
    }
  }

  /** Open the served generation, creating a first one when there is none. */
  static open(dir: string): SqliteReadModels {
    fs.mkdirSync(dir, { recursive: true });
    let gen = readCurrent(dir);
    if (!gen || !fs.existsSync(path.join(dir, `${gen}.sqlite`))) {
      gen = newGenerationName();
      const rm = SqliteReadModels.openGeneration(dir, gen);
      promote(dir, gen);
      return rm;
    }
    return SqliteReadModels.openGeneration(dir, gen);
  }

  /**
   * A fresh, empty generation that is not served until `promote()`. Nobody reads it and a
   * failed rebuild throws it away, so until then it is written as a bulk load: rollback
   * journal in memory, no fsync, no secondary indexes (`promote()` builds them, turns WAL
   * on and syncs the file before serving it).
   */
  static createGeneration(dir: string): SqliteReadModels {
    fs.mkdirSync(dir, { recursive: true });
    const gen = newGenerationName();
    const db = new Database(path.join(dir, `${gen}.sqlite`));
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    db.pragma(`cache_size = -${BULK_CACHE_KIB}`);
    db.exec(TABLES);
    db.exec(WEBHOOK_SCHEMA);
    return new SqliteReadModels(db, dir, gen, true);
  }

  /** The generation `dir` serves (named by its CURRENT file), or null before the first. */
  static servedGeneration(dir: string): string | null {
    return readCurrent(dir);
  }

  /** Generation `gen` of `dir`, as served (WAL). The projection writer thread opens its
   * own connection to the served generation with it. */
  static openGeneration(dir: string, gen: string): SqliteReadModels {
    const db = new Database(path.join(dir, `${gen}.sqlite`));
    SqliteReadModels.serve(db);
    db.exec(TABLES);
    db.exec(INDEXES);
    db.exec(WEBHOOK_SCHEMA);
    return new SqliteReadModels(db, dir, gen, false);
  }

  private static serve(db: Database.Database): void {
    db.pragma('journal_mode = WAL');
    // Process crashes lose nothing in WAL mode; an OS crash may lose the last commits,
    // which the projector re-applies from the log (the positions roll back with them).
    db.pragma('synchronous = NORMAL');
  }

  /** End a generation's bulk load: build its secondary indexes, turn WAL on and sync the
   * file written without fsync. `promote()` does it if it was not done before. */
  finishBulkLoad(): void {
    if (!this.bulk) return;
    this.db.exec(INDEXES);
    SqliteReadModels.serve(this.db);
    const fd = fs.openSync(path.join(this.dir, `${this.gen}.sqlite`), 'r+');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    this.bulk = false;
  }

  /** Serve this generation from now on and delete the older ones. */
  promote(): void {
    this.finishBulkLoad();
    promote(this.dir, this.gen);
    for (const f of fs.readdirSync(this.dir)) {
      if (/^gen-.*\.sqlite(-wal|-shm)?$/.test(f) && !f.startsWith(this.gen)) fs.rmSync(path.join(this.dir, f), { force: true });
    }
  }

  liveGenerations(): null {
    return null;
  }

  encodedApply(): EncodedApply {
    return this;
  }

  generation(): string {
    return this.gen;
  }

  private prepare() {
    const db = this.db;
    return {
      insertDecision: db.prepare(
        'INSERT OR IGNORE INTO decisions (decision_id, tenant_id, request_id, ts, action, policy_id, pos, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      upsertPolicy: db.prepare(
        `INSERT INTO policies (tenant_id, policy_id, pos, body) VALUES (?, ?, ?, ?)
         ON CONFLICT (tenant_id, policy_id) DO UPDATE SET
           body = json_set(excluded.body, '$.createdAt', json_extract(policies.body, '$.createdAt')), pos = excluded.pos
         WHERE excluded.pos > policies.pos`,
      ),
      insertKey: db.prepare('INSERT OR IGNORE INTO keys (key_id, tenant_id, hash, pos, body) VALUES (?, ?, ?, ?, ?)'),
      revokeKey: db.prepare(`UPDATE keys SET body = json_set(body, '$.revokedAt', ?), pos = ? WHERE key_id = ? AND tenant_id = ? AND pos < ?`),
      insertGuardrailDecision: db.prepare(
        `INSERT OR IGNORE INTO guardrail_decisions (decision_id, tenant_id, project_id, ts, kind, action, requires_approval, pos, body)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertGuardrailPolicyVersion: db.prepare(
        'INSERT OR IGNORE INTO guardrail_policy_versions (tenant_id, project_id, version, pos, body) VALUES (?, ?, ?, ?, ?)',
      ),
      getGuardrailDecision: db.prepare('SELECT body FROM guardrail_decisions WHERE tenant_id = ? AND decision_id = ?'),
      skillAccepted: db.prepare(
        `SELECT body FROM guardrail_decisions WHERE tenant_id = ? AND json_extract(body, '$.skill.skillId') = ? AND kind = 'skill_vetting'
           AND project_id IS ? AND requires_approval = 0 ORDER BY ts DESC, pos DESC LIMIT 1`,
      ),
      // Only the fields the sequence rules read: parsing whole decisions (policy included) would cost ~20 µs each.
      sessionActions: db.prepare(
        `SELECT decision_id AS decisionId, ts AS timestamp, json_extract(body, '$.request.actionType') AS actionType,
                json_extract(body, '$.request.command') AS command, json_extract(body, '$.request.targetPath') AS targetPath,
                json_extract(body, '$.categories') AS categories, json_extract(body, '$.session.facts') AS facts
         FROM guardrail_decisions WHERE tenant_id = ? AND json_extract(body, '$.session.sessionId') = ? AND kind = 'action_authorization'
         ORDER BY ts DESC, pos DESC LIMIT ?`,
      ),
      skillFirst: db.prepare(
        `SELECT body FROM guardrail_decisions WHERE tenant_id = ? AND json_extract(body, '$.skill.skillId') = ? AND kind = 'skill_vetting'
           AND project_id IS ? ORDER BY ts ASC, pos ASC LIMIT 1`,
      ),
      currentGuardrailPolicy: db.prepare('SELECT body FROM guardrail_policy_versions WHERE tenant_id = ? AND project_id = ? ORDER BY pos DESC LIMIT 1'),
      guardrailPolicyVersion: db.prepare('SELECT body FROM guardrail_policy_versions WHERE tenant_id = ? AND project_id = ? AND version = ?'),
      guardrailPolicyHistory: db.prepare('SELECT body FROM guardrail_policy_versions WHERE tenant_id = ? AND project_id = ? ORDER BY pos DESC'),
      guardrailDailyCounts: db.prepare(
        `SELECT substr(ts, 1, 10) AS date, count(*) AS total, sum(action = 'block') AS blocked,
                sum(requires_approval) AS approvalRequired, sum(kind = 'skill_vetting') AS skillVetting
         FROM guardrail_decisions WHERE tenant_id = ? AND project_id = ? AND ts >= ? AND ts < ?
         GROUP BY date ORDER BY date`,
      ),
      setPosition: db.prepare(
        `INSERT INTO positions (topic, part, next_offset) VALUES (?, ?, ?)
         ON CONFLICT (topic, part) DO UPDATE SET next_offset = max(next_offset, excluded.next_offset)`,
      ),
      getDecision: db.prepare('SELECT tenant_id, ts, body FROM decisions WHERE tenant_id = ? AND decision_id = ?'),
      byRequest: db.prepare('SELECT tenant_id, ts, body FROM decisions WHERE tenant_id = ? AND request_id = ? ORDER BY pos ASC LIMIT 1'),
      getPolicy: db.prepare('SELECT body FROM policies WHERE tenant_id = ? AND policy_id = ?'),
      listPolicies: db.prepare('SELECT body FROM policies WHERE tenant_id = ? ORDER BY policy_id'),
      keyByHash: db.prepare('SELECT body FROM keys WHERE hash = ?'),
      getKey: db.prepare('SELECT body FROM keys WHERE tenant_id = ? AND key_id = ?'),
      listKeys: db.prepare(`SELECT body FROM keys WHERE tenant_id = ? ORDER BY json_extract(body, '$.createdAt'), key_id`),
    };
  }

  async applyBatch(batch: ProjectedEvent[]): Promise<void> {
    this.applyRows(batch.map((e) => rowsOf(e)));
  }

  /** Apply events already turned into rows (`rowsOf`), in one transaction with their
   * positions; returns the positions it advanced and the projects given a new guardrail
   * policy version. The rebuild makes the rows on worker threads; the live projector
   * applies them on its writer thread (`applyEncoded`). */
  applyRows(batch: RowsAt[]): AppliedRows {
    const advanced = new Map<string, AppliedPosition>();
    this.db.transaction(() => {
      for (const at of batch) {
        for (const row of at.rows) {
          if ('webhook' in row) this.webhooks.write(row.webhook, at.offset);
          else this.stmts[row.statement].run(...row.args);
        }
        const k = `${at.topic}:${at.partition}`;
        const next = at.offset + 1;
        if ((advanced.get(k)?.next ?? -1) < next) advanced.set(k, { topic: at.topic, partition: at.partition, next });
      }
      for (const a of advanced.values()) this.stmts.setPosition.run(a.topic, a.partition, a.next);
    })();
    const guardrailPolicies = guardrailPoliciesOf(batch);
    for (const key of guardrailPolicies) this.currentGuardrailPolicies.delete(key);
    for (const a of advanced.values()) this.waiters.advance(a.topic, a.partition, a.next);
    if (this.bulk) this.syncAhead(batch.length);
    return { advanced: [...advanced.values()], guardrailPolicies };
  }

  /**
   * Apply events as the log holds them (JSON text) on this generation's writer thread,
   * started on first use: it parses, lifts and writes them through its own connection
   * (`applyRows` there), so this thread only reads. Positions advance here once the
   * thread has committed, so a read that waited for them sees the rows. Resolves with
   * the messages of the events parked (skipped, unreadable) for the caller's log.
   */
  async applyEncoded(batch: EncodedEvent[]): Promise<string[]> {
    if (this.bulk) throw new Error('applyEncoded: a generation being bulk loaded takes rows (applyRows)');
    if (this.closed) throw new Error('applyEncoded: the read models are closed');
    const writer = (this.writer ??= new SqliteProjectionWriter(this.dir, this.gen));
    let applied: AppliedBatch;
    try {
      applied = await writer.apply(batch);
    } catch (err) {
      // The projector retries the batch: on a fresh thread, whatever became of this one.
      if (this.writer === writer) this.writer = null;
      await writer.close();
      throw err;
    }
    for (const key of applied.guardrailPolicies) this.currentGuardrailPolicies.delete(key);
    for (const a of applied.advanced) this.waiters.advance(a.topic, a.partition, a.next);
    return applied.parked;
  }

  /**
   * A bulk load writes without fsync, and its end syncs the whole file. Syncing what is
   * written so far, off this thread, while the load goes on leaves that last sync little
   * to do. One sync at a time, each after `BULK_SYNC_EVENTS` more events.
   */
  private syncAhead(events: number): void {
    this.eventsSinceSync += events;
    if (this.syncing || this.eventsSinceSync < BULK_SYNC_EVENTS) return;
    this.eventsSinceSync = 0;
    const file = path.join(this.dir, `${this.gen}.sqlite`);
    this.syncing = fs.promises
      .open(file, 'r+')
      .then((fh) => fh.datasync().finally(() => fh.close()))
      .catch(() => undefined) // only a head start: finishBulkLoad syncs the file anyway
      .finally(() => (this.syncing = null));
  }

  appliedNextOffsets(): Map<string, number> {
    return this.waiters.snapshot();
  }

  waitFor(positions: LogPosition[], timeoutMs: number): Promise<boolean> {
    return this.waiters.waitFor(positions, timeoutMs);
  }

  async getDecision(tenantId: string, decisionId: string): Promise<DecisionDoc | null> {
    return parseDecision(this.stmts.getDecision.get(tenantId, decisionId));
  }

  async findDecisionByRequestId(tenantId: string, requestId: string): Promise<DecisionDoc | null> {
    return parseDecision(this.stmts.byRequest.get(tenantId, requestId));
  }

  async listDecisions(tenantId: string, f: DecisionFilter): Promise<DecisionDoc[]> {
    const where = ['tenant_id = ?'];
    const args: unknown[] = [tenantId];
    const and = (clause: string, arg: unknown) => {
      where.push(clause);
      args.push(arg);
    };
    if (f.action) and('action = ?', f.action);
    if (f.policyId) and('policy_id = ?', f.policyId);
    if (f.from) and('ts >= ?', f.from);
    if (f.to) and('ts <= ?', f.to);
    if (f.userId !== undefined) {
      and(`json_type(body, '$.metadata.userId') IN ('text', 'integer', 'real') AND CAST(json_extract(body, '$.metadata.userId') AS TEXT) = ?`, f.userId);
    }
    if (f.category !== undefined) {
      and(
        `EXISTS (SELECT 1 FROM json_each(body, '$.categories') c WHERE json_extract(c.value, '$.category') = ? AND json_extract(c.value, '$.triggered'))`,
        f.category,
      );
    }
    if (f.q) and(`instr(lower(json_extract(body, '$.content')), lower(?)) > 0`, f.q);
    args.push(f.limit, f.offset);
    const rows = this.db
      .prepare(`SELECT tenant_id, ts, body FROM decisions WHERE ${where.join(' AND ')} ORDER BY ts DESC, pos DESC LIMIT ? OFFSET ?`)
      .all(...args);
    return rows.map((r) => parseDecision(r)!);
  }

  async getPolicy(tenantId: string, policyId: string): Promise<PolicyDoc | null> {
    return parse(this.stmts.getPolicy.get(tenantId, policyId));
  }

  async listPolicies(tenantId: string): Promise<PolicyDoc[]> {
    return this.stmts.listPolicies.all(tenantId).map((r) => parse<PolicyDoc>(r)!);
  }

  async findKeyByHash(hash: string): Promise<KeyDoc | null> {
    return parse(this.stmts.keyByHash.get(hash));
  }

  async getKey(tenantId: string, keyId: string): Promise<KeyDoc | null> {
    return parse(this.stmts.getKey.get(tenantId, keyId));
  }

  async listKeys(tenantId: string): Promise<KeyDoc[]> {
    return this.stmts.listKeys.all(tenantId).map((r) => parse<KeyDoc>(r)!);
  }

  async getGuardrailDecision(tenantId: string, decisionId: string): Promise<GuardrailDecisionDoc | null> {
    return parse(this.stmts.getGuardrailDecision.get(tenantId, decisionId));
  }

  async listSessionActions(tenantId: string, sessionId: string, limit: number): Promise<GuardrailSessionActionDoc[]> {
    const rows = this.stmts.sessionActions.all(tenantId, sessionId, limit) as Array<Record<string, string | null>>;
    return rows.map((r) => ({
      decisionId: r.decisionId ?? '',
      timestamp: r.timestamp ?? '',
      actionType: r.actionType ?? '',
      command: r.command ?? '',
      targetPath: r.targetPath ?? '',
      categories: JSON.parse(r.categories ?? '[]') as string[],
      facts: JSON.parse(r.facts ?? '[]') as GuardrailSessionActionDoc['facts'],
    }));
  }

  async getSkillPin(tenantId: string, projectId: string | null, skillId: string): Promise<GuardrailDecisionDoc | null> {
    return (
      parse<GuardrailDecisionDoc>(this.stmts.skillAccepted.get(tenantId, skillId, projectId)) ??
      parse<GuardrailDecisionDoc>(this.stmts.skillFirst.get(tenantId, skillId, projectId))
    );
  }

  /**
   * Every action authorization reads its project's policy, so the current one (or its
   * absence) is kept in memory, parsed once and shared (the engine keeps its compiled form
   * too, see resolvePolicyWithOrigin). The projection is what retires it: a batch that
   * adds a version forgets its project's entry once committed and before its positions
   * advance, so a read that waited for them loads the new version. The writes reach this
   * instance only (`applyRows`, `applyEncoded`), as do the positions reads wait on.
   */
  async getGuardrailPolicy(tenantId: string, projectId: string): Promise<GuardrailPolicyVersionDoc | null> {
    const key = guardrailPolicyKey(tenantId, projectId);
    const hit = this.currentGuardrailPolicies.get(key);
    if (hit !== undefined) return hit.doc;
    // A synchronous read: no writer answer (which retires entries) is handled before the set;
    // a version the writer thread commits meanwhile is retired when its answer comes.
    const doc = parse<GuardrailPolicyVersionDoc>(this.stmts.currentGuardrailPolicy.get(tenantId, projectId));
    this.currentGuardrailPolicies.set(key, { doc });
    return doc;
  }

  async getGuardrailPolicyVersion(tenantId: string, projectId: string, version: string): Promise<GuardrailPolicyVersionDoc | null> {
    return parse(this.stmts.guardrailPolicyVersion.get(tenantId, projectId, version));
  }

  async listGuardrailPolicyHistory(tenantId: string, projectId: string): Promise<GuardrailPolicyVersionDoc[]> {
    return this.stmts.guardrailPolicyHistory.all(tenantId, projectId).map((r) => parse<GuardrailPolicyVersionDoc>(r)!);
  }

  async guardrailCounts(tenantId: string, projectId: string, from: string, to: string): Promise<GuardrailCounts> {
    const rows = this.stmts.guardrailDailyCounts.all(tenantId, projectId, from, to) as (GuardrailDayCounts & { skillVetting: number })[];
    const counts: GuardrailCounts = { total: 0, blocked: 0, approvalRequired: 0, skillVetting: 0, runtimeAuthorization: 0, daily: [] };
    for (const r of rows) {
      counts.total += r.total;
      counts.blocked += r.blocked;
      counts.approvalRequired += r.approvalRequired;
      counts.skillVetting += r.skillVetting;
      counts.daily.push({ date: r.date, total: r.total, blocked: r.blocked, approvalRequired: r.approvalRequired });
    }
    counts.runtimeAuthorization = counts.total - counts.skillVetting;
    return counts;
  }

  getWebhook(tenantId: string, webhookId: string): Promise<WebhookDoc | null> {
    return this.webhooks.getWebhook(tenantId, webhookId);
  }

  listWebhooks(tenantId: string): Promise<WebhookDoc[]> {
    return this.webhooks.listWebhooks(tenantId);
  }

  getDelivery(tenantId: string, deliveryId: string): Promise<DeliveryDoc | null> {
    return this.webhooks.getDelivery(tenantId, deliveryId);
  }

  listPendingDeliveries(limit: number, after?: PendingCursor | null): Promise<DeliveryDoc[]> {
    return this.webhooks.listPendingDeliveries(limit, after);
  }

  listDeliveryAttempts(tenantId: string, webhookId: string, limit: number): Promise<DeliveryAttemptDoc[]> {
    return this.webhooks.listDeliveryAttempts(tenantId, webhookId, limit);
  }

  webhookFailingSince(tenantId: string, webhookId: string, notBefore?: string | null): Promise<string | null> {
    return this.webhooks.webhookFailingSince(tenantId, webhookId, notBefore);
  }

  getBatch(tenantId: string, batchId: string): Promise<BatchDoc | null> {
    return this.webhooks.getBatch(tenantId, batchId);
  }

  async healthy(): Promise<boolean> {
    return this.db.open;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiters.cancelAll();
    await this.writer?.close();
    if (this.db.open) this.db.close();
    await this.syncing;
  }
}

function parse<T>(row: unknown): T | null {
  return row ? (JSON.parse((row as { body: string }).body) as T) : null;
}

/** A decision's row: its one part stored once, and its body the document or, cut out of
 * its event, the document less the tenant and time of its columns (sqlite-rows.ts). */
function parseDecision(row: unknown): DecisionDoc | null {
  return row ? readDecisionRow(row as { tenant_id: string; ts: string; body: string }) : null;
}

function newGenerationName(): string {
  return `gen-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

function readCurrent(dir: string): string | null {
  try {
    return fs.readFileSync(path.join(dir, 'CURRENT'), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** Atomically point CURRENT at a generation (write, fsync, rename). */
function promote(dir: string, gen: string): void {
  const tmp = path.join(dir, `CURRENT.${process.pid}.tmp`);
  const fd = fs.openSync(tmp, 'w');
  fs.writeSync(fd, gen);
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(tmp, path.join(dir, 'CURRENT'));
}
