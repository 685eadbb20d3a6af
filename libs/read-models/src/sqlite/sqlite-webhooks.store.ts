import Database from 'better-sqlite3';
import { BatchDoc, DeliveryAttemptDoc, DeliveryDoc, WebhookDoc } from '../documents';
import { WebhookDocWrite } from '../projection';
import { PendingCursor, WebhookReadModels } from '../webhook-read-models.port';

export const WEBHOOK_SCHEMA = `
CREATE TABLE IF NOT EXISTS webhooks (
  webhook_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, deleted INTEGER NOT NULL, created_at TEXT NOT NULL,
  pos INTEGER NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS webhooks_by_tenant ON webhooks (tenant_id, deleted, created_at);
CREATE TABLE IF NOT EXISTS deliveries (
  delivery_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, state TEXT NOT NULL, next_attempt_at TEXT,
  pos INTEGER NOT NULL, body TEXT NOT NULL);
DROP INDEX IF EXISTS deliveries_pending;
CREATE INDEX IF NOT EXISTS deliveries_pending_pages ON deliveries (next_attempt_at, delivery_id) WHERE state = 'pending';
CREATE TABLE IF NOT EXISTS delivery_attempts (
  delivery_id TEXT NOT NULL, attempt INTEGER NOT NULL, tenant_id TEXT NOT NULL, webhook_id TEXT, status TEXT NOT NULL,
  ts TEXT NOT NULL, pos INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (delivery_id, attempt));
CREATE INDEX IF NOT EXISTS delivery_attempts_by_webhook ON delivery_attempts (tenant_id, webhook_id, ts DESC, pos DESC);
CREATE TABLE IF NOT EXISTS batches (
  batch_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, pos INTEGER NOT NULL, body TEXT NOT NULL);
`;

/** The webhook, delivery and batch tables of a SQLite read-model generation. Writes run
 * inside the caller's transaction (SqliteReadModels.applyBatch). */
export class SqliteWebhookStore implements WebhookReadModels {
  private readonly s: ReturnType<typeof prepare>;

  constructor(db: Database.Database) {
    this.s = prepare(db);
  }

  write(w: WebhookDocWrite, pos: number): void {
    const s = this.s;
    switch (w.kind) {
      case 'webhook':
        s.insertWebhook.run(w.doc.webhookId, w.doc.tenantId, w.doc.createdAt, pos, JSON.stringify(w.doc));
        return;
      case 'webhook-patch':
        return patch(s.getWebhookRow, s.updateWebhook, [w.tenantId, w.webhookId], w.patch, pos, (doc: WebhookDoc) => [doc.deletedAt ? 1 : 0]);
      case 'delivery': {
        const d = w.doc;
        s.insertDelivery.run(d.deliveryId, d.tenantId, d.state, d.nextAttemptAt, pos, JSON.stringify(d));
        return;
      }
      case 'delivery-patch':
        return patch(s.getDeliveryRow, s.updateDelivery, [w.tenantId, w.deliveryId], w.patch, pos, (doc: DeliveryDoc) => [doc.state, doc.nextAttemptAt]);
      case 'delivery-attempt': {
        const d = w.doc;
        s.insertAttempt.run(d.deliveryId, d.attempt, d.tenantId, d.webhookId, d.status, d.timestamp, pos, JSON.stringify(d));
        return;
      }
      case 'batch':
        s.insertBatch.run(w.doc.batchId, w.doc.tenantId, pos, JSON.stringify(w.doc));
        return;
      case 'batch-patch':
        return patch(s.getBatchRow, s.updateBatch, [w.tenantId, w.batchId], w.patch, pos, () => []);
      default: {
        const exhaustive: never = w;
        return exhaustive;
      }
    }
  }

  async getWebhook(tenantId: string, webhookId: string): Promise<WebhookDoc | null> {
    return parse(this.s.getWebhook.get(tenantId, webhookId));
  }

  async listWebhooks(tenantId: string): Promise<WebhookDoc[]> {
    return this.s.listWebhooks.all(tenantId).map((r) => parse<WebhookDoc>(r)!);
  }

  async getDelivery(tenantId: string, deliveryId: string): Promise<DeliveryDoc | null> {
    return parse(this.s.getDelivery.get(tenantId, deliveryId));
  }

  async listPendingDeliveries(limit: number, after: PendingCursor | null = null): Promise<DeliveryDoc[]> {
    // NULLs sort first (none is expected: a pending delivery always has a due time).
    const rows = !after
      ? this.s.pendingDeliveries.all(limit)
      : after.nextAttemptAt === null
        ? this.s.pendingDeliveriesAfterUndated.all(after.deliveryId, limit)
        : this.s.pendingDeliveriesAfter.all(after.nextAttemptAt, after.deliveryId, limit);
    return rows.map((r) => parse<DeliveryDoc>(r)!);
  }

  async listDeliveryAttempts(tenantId: string, webhookId: string, limit: number): Promise<DeliveryAttemptDoc[]> {
    return this.s.attemptsOfWebhook.all(tenantId, webhookId, limit).map((r) => parse<DeliveryAttemptDoc>(r)!);
  }

  async webhookFailingSince(tenantId: string, webhookId: string, notBefore: string | null = null): Promise<string | null> {
    const row = this.s.failingSince.get(tenantId, webhookId, tenantId, webhookId, notBefore ?? '') as { since: string | null } | undefined;
    return row?.since ?? null;
  }

  async getBatch(tenantId: string, batchId: string): Promise<BatchDoc | null> {
    return parse(this.s.getBatch.get(tenantId, batchId));
  }
}

function prepare(db: Database.Database) {
  return {
    insertWebhook: db.prepare('INSERT OR IGNORE INTO webhooks (webhook_id, tenant_id, deleted, created_at, pos, body) VALUES (?, ?, 0, ?, ?, ?)'),
    getWebhookRow: db.prepare('SELECT pos, body FROM webhooks WHERE tenant_id = ? AND webhook_id = ?'),
    updateWebhook: db.prepare('UPDATE webhooks SET body = ?, pos = ?, deleted = ? WHERE tenant_id = ? AND webhook_id = ?'),
    getWebhook: db.prepare('SELECT body FROM webhooks WHERE tenant_id = ? AND webhook_id = ? AND deleted = 0'),
    listWebhooks: db.prepare('SELECT body FROM webhooks WHERE tenant_id = ? AND deleted = 0 ORDER BY created_at, webhook_id'),
    insertDelivery: db.prepare('INSERT OR IGNORE INTO deliveries (delivery_id, tenant_id, state, next_attempt_at, pos, body) VALUES (?, ?, ?, ?, ?, ?)'),
    getDeliveryRow: db.prepare('SELECT pos, body FROM deliveries WHERE tenant_id = ? AND delivery_id = ?'),
    updateDelivery: db.prepare('UPDATE deliveries SET body = ?, pos = ?, state = ?, next_attempt_at = ? WHERE tenant_id = ? AND delivery_id = ?'),
    getDelivery: db.prepare('SELECT body FROM deliveries WHERE tenant_id = ? AND delivery_id = ?'),
    pendingDeliveries: db.prepare(`SELECT body FROM deliveries WHERE state = 'pending' ORDER BY next_attempt_at, delivery_id LIMIT ?`),
    pendingDeliveriesAfter: db.prepare(
      `SELECT body FROM deliveries WHERE state = 'pending' AND (next_attempt_at, delivery_id) > (?, ?) ORDER BY next_attempt_at, delivery_id LIMIT ?`,
    ),
    pendingDeliveriesAfterUndated: db.prepare(
      `SELECT body FROM deliveries WHERE state = 'pending' AND (next_attempt_at IS NOT NULL OR delivery_id > ?)
         ORDER BY next_attempt_at, delivery_id LIMIT ?`,
    ),
    insertAttempt: db.prepare(
      'INSERT OR IGNORE INTO delivery_attempts (delivery_id, attempt, tenant_id, webhook_id, status, ts, pos, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    attemptsOfWebhook: db.prepare('SELECT body FROM delivery_attempts WHERE tenant_id = ? AND webhook_id = ? ORDER BY ts DESC, pos DESC LIMIT ?'),
    failingSince: db.prepare(
      `SELECT min(ts) AS since FROM delivery_attempts WHERE tenant_id = ? AND webhook_id = ? AND status = 'failed'
         AND ts > max(coalesce((SELECT max(ts) FROM delivery_attempts WHERE tenant_id = ? AND webhook_id = ? AND status = 'succeeded'), ''), ?)`,
    ),
    insertBatch: db.prepare('INSERT OR IGNORE INTO batches (batch_id, tenant_id, pos, body) VALUES (?, ?, ?, ?)'),
    getBatchRow: db.prepare('SELECT pos, body FROM batches WHERE tenant_id = ? AND batch_id = ?'),
    updateBatch: db.prepare('UPDATE batches SET body = ?, pos = ? WHERE tenant_id = ? AND batch_id = ?'),
    getBatch: db.prepare('SELECT body FROM batches WHERE tenant_id = ? AND batch_id = ?'),
  };
}

/** Merge a patch into a stored document when the event is newer than the document.
 * `columns` gives the indexed columns derived from the merged document. */
function patch<T>(
  get: Database.Statement,
  update: Database.Statement,
  key: [string, string],
  changes: Partial<T>,
  pos: number,
  columns: (doc: T) => unknown[],
): void {
  const row = get.get(...key) as { pos: number; body: string } | undefined;
  if (!row || row.pos >= pos) return;
  const doc = { ...(JSON.parse(row.body) as T), ...changes };
  update.run(JSON.stringify(doc), pos, ...columns(doc), ...key);
}

function parse<T>(row: unknown): T | null {
  return row ? (JSON.parse((row as { body: string }).body) as T) : null;
}
