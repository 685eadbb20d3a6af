import type { LiftedEvent } from '@cds/event-log';
import { DecisionCreatedV2, decisionDataText, decodeDecisionDoc, encodeDecisionDoc } from '@cds/events';
import { DecisionDoc } from '../documents';
import { decisionDoc, DocWrite, toDocWrites, WebhookDocWrite } from '../projection';

/** The SQLite statements a document write runs, by name (the adapter prepares them). */
export type RowStatement = 'insertDecision' | 'upsertPolicy' | 'insertKey' | 'revokeKey' | 'insertGuardrailDecision' | 'insertGuardrailPolicyVersion';

/**
 * One document write as SQLite runs it: a statement and its parameters, bodies already
 * serialised. Plain strings and numbers, so a row made on a worker thread crosses to the
 * writer cheaply. Webhook writes merge into stored rows; they stay documents.
 */
export type SqliteRow = { statement: RowStatement; args: (string | number | null | undefined)[] } | { webhook: WebhookDocWrite };

/** An event's rows with its position: what the SQLite read models apply. */
export interface RowsAt {
  topic: string;
  partition: number;
  offset: number;
  rows: SqliteRow[];
}

/** `decisionText`: a decision's document as its event's data text (`decisionDataText`),
 * when the event gave one; otherwise the document is serialised here. */
export function sqliteRow(w: DocWrite, pos: number, decisionText: string | null = null): SqliteRow {
  switch (w.kind) {
    case 'decision': {
      const d = w.doc;
      return {
        statement: 'insertDecision',
        args: [d.decisionId, d.tenantId, d.requestId, d.timestamp, d.action, d.policyId, pos, decisionText ?? encodeDecisionDoc(d)],
      };
    }
    case 'policy':
      return { statement: 'upsertPolicy', args: [w.doc.tenantId, w.doc.policyId, pos, JSON.stringify(w.doc)] };
    case 'key':
      return { statement: 'insertKey', args: [w.doc.keyId, w.doc.tenantId, w.doc.hash, pos, JSON.stringify(w.doc)] };
    case 'key-revoked':
      return { statement: 'revokeKey', args: [w.revokedAt, pos, w.keyId, w.tenantId, pos] };
    case 'guardrail-decision': {
      const d = w.doc;
      return {
        statement: 'insertGuardrailDecision',
        args: [d.decisionId, d.tenantId, d.projectId, d.timestamp, d.kind, d.action, d.requiresApproval ? 1 : 0, pos, JSON.stringify(d)],
      };
    }
    case 'guardrail-policy-version':
      return { statement: 'insertGuardrailPolicyVersion', args: [w.doc.tenantId, w.doc.projectId, w.doc.version, pos, JSON.stringify(w.doc)] };
    case 'webhook':
    case 'webhook-patch':
    case 'delivery':
    case 'delivery-patch':
    case 'delivery-attempt':
    case 'batch':
    case 'batch-patch':
      return { webhook: w };
    default: {
      const exhaustive: never = w;
      return exhaustive;
    }
  }
}

/** An event's rows; `json`, the event's text as the log holds it, spares serialising a
 * decision's document again (see `decisionDataText`). */
export function rowsOf(e: LiftedEvent, json?: string): RowsAt {
  const decisionText = json === undefined ? null : decisionDataText(json, e.event);
  return { topic: e.topic, partition: e.partition, offset: e.offset, rows: toDocWrites(e.event).map((w) => sqliteRow(w, e.offset, decisionText)) };
}

/** A decision's row as read (`tenant_id`, `ts`, `body`): its document, stored whole or as
 * its event's data (`decisionDataText`), which the columns complete. */
export function readDecisionRow(row: { tenant_id: string; ts: string; body: string }): DecisionDoc {
  const stored = decodeDecisionDoc<DecisionDoc | DecisionCreatedV2>(row.body);
  return 'tenantId' in stored ? stored : decisionDoc(stored, row.tenant_id, row.ts);
}

/** A project's key in the read models' in-memory map of current guardrail policies. */
export function guardrailPolicyKey(tenantId: string, projectId: string): string {
  return `${tenantId.length}:${tenantId}${projectId}`;
}

/** The projects these rows give a new guardrail policy version (their keys). */
export function guardrailPoliciesOf(batch: RowsAt[]): string[] {
  const keys: string[] = [];
  for (const at of batch) {
    for (const row of at.rows) {
      if ('statement' in row && row.statement === 'insertGuardrailPolicyVersion') keys.push(guardrailPolicyKey(String(row.args[0]), String(row.args[1])));
    }
  }
  return keys;
}
