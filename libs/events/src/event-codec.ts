import { EventEnvelope } from './envelope';
import { DecisionPart } from './domain-events';
import type { DecisionCreatedV2 } from './event-bodies';
import { EventSchemaError } from './event-schema-error';

/**
 * How events are stored on the log, as JSON text. One form differs from the event in
 * memory: a `decision.created` (v2) of one part repeats that part's signals, categories
 * and verdict at the top, so it is stored as v3, whose part leaves them out, at 1.6 KB
 * instead of 2.5 KB a text check. Every check of a single text or image is one part, so
 * this is what the log mostly holds; the write encodes and the read decodes less.
 * `liftStoredForm` brings v3 back to v2 before any upcast: v3 exists only on the log, and
 * a build older than it parks such an event as newer than it understands.
 */
export const DECISION_STORED_VERSION = 3;

/** The keys a one-part decision's part shares with the decision itself. */
const SHARED = ['signals', 'categories', 'action', 'safe', 'flagged'] as const;

type CompactPart = Omit<DecisionPart, (typeof SHARED)[number]>;

/** What a decision (its event's data, or its stored document) holds beside its parts. */
type WithParts = { parts: unknown } & Record<(typeof SHARED)[number], unknown>;

/** An envelope as the JSON text the log stores. */
export function encodeEvent(e: EventEnvelope): string {
  if (e.type !== 'decision.created' || e.version !== 2) return JSON.stringify(e);
  const data = e.data as unknown as DecisionCreatedV2;
  const part = compactPart(data);
  return JSON.stringify(part ? { ...e, version: DECISION_STORED_VERSION, data: { ...data, parts: [part] } } : e);
}

/** An envelope as read from the log, in the form its upcasters start from: a v3
 * `decision.created` becomes the v2 it was stored from (EventSchemaError when it cannot);
 * anything else is returned as is. */
export function liftStoredForm(e: EventEnvelope): EventEnvelope {
  if (e.type !== 'decision.created' || e.version !== DECISION_STORED_VERSION) return e;
  const data = e.data as unknown as WithParts;
  const parts = data?.parts;
  if (!Array.isArray(parts) || parts.length !== 1 || !isObject(parts[0])) {
    throw new EventSchemaError(`decision.created v${DECISION_STORED_VERSION}: field data.parts must hold one part`);
  }
  return { ...e, version: 2, data: { ...data, parts: [fullPart(data, parts[0] as CompactPart)] } as unknown as EventEnvelope['data'] };
}

/**
 * A decision's stored document (the read models' DecisionDoc) as JSON, its one part
 * stored once as in the log: the SQLite read models keep this text and read it back
 * with `decodeDecisionDoc`. Queries of the text see the decision's own fields unchanged.
 */
export function encodeDecisionDoc(doc: WithParts): string {
  return JSON.stringify(compactDecision(doc));
}

/** A decision (its document or its event's data) with its one part stored once, when the
 * part holds the decision's own values as the very same objects; the decision itself
 * otherwise. `expandDecision` makes it whole again. */
export function compactDecision<D extends WithParts>(d: D): D {
  const part = compactPart(d);
  return part ? { ...d, parts: [part] } : d;
}

/** A decision `compactDecision` stored, its one part whole again (in place); a decision
 * stored whole is returned as it is. */
export function expandDecision<D>(d: D): D {
  const doc = d as unknown as WithParts;
  const parts = doc?.parts;
  if (Array.isArray(parts) && parts.length === 1 && isObject(parts[0]) && !('signals' in parts[0])) {
    doc.parts = [fullPart(doc, parts[0] as CompactPart)];
  }
  return d;
}

/**
 * A decision's stored document cut out of its event as the log holds it, instead of made
 * again: the event's `data` text. That is the document less `tenantId` and `timestamp`,
 * which the SQLite read models keep in columns of their own and put back when they read
 * it (`readDecisionRow`).
 * `json` is the stored text of `e`, the event it was lifted to. Only for an event as
 * `encodeEvent` writes it: v2 or v3 on the log, its keys in their order and none other;
 * null for anything else, whose document is then made with `encodeDecisionDoc`.
 */
export function decisionDataText(json: string, e: EventEnvelope): string | null {
  if (e.type !== 'decision.created' || e.version !== 2) return null;
  const withRequestId = e.requestId !== undefined;
  if (Object.keys(e).length !== (withRequestId ? 8 : 7)) return null;
  const start = `{"id":${JSON.stringify(e.id)},"type":"decision.created","version":`;
  const tail = withRequestId ? `,"requestId":${JSON.stringify(e.requestId)}}` : '}';
  if (!json.startsWith(start) || !json.endsWith(tail)) return null;
  const version = json.charCodeAt(start.length) - 48;
  if (version !== 2 && version !== DECISION_STORED_VERSION) return null;
  const head = `,"occurredAt":${JSON.stringify(e.occurredAt)},"tenantId":${JSON.stringify(e.tenantId)},"key":${JSON.stringify(e.key)},"data":`;
  if (!json.startsWith(head, start.length + 1)) return null;
  const from = start.length + 1 + head.length;
  const to = json.length - tail.length;
  return to > from && json.charCodeAt(from) === 0x7b && json.charCodeAt(to - 1) === 0x7d ? json.slice(from, to) : null;
}

/** The document `encodeDecisionDoc` stored (one stored whole is read as it is), or the
 * event data `decisionDataText` cut out (which the read models complete with the tenant
 * and time of its columns), its one part whole again. */
export function decodeDecisionDoc<D>(json: string): D {
  return expandDecision(JSON.parse(json) as D);
}

/** The one part of a decision without what it shares with the decision, when it holds
 * those as the very same values (the decoded decision is then equal to this one, to its
 * JSON); null for anything else. */
function compactPart(d: WithParts): CompactPart | null {
  const parts = d.parts;
  if (!Array.isArray(parts) || parts.length !== 1 || !isObject(parts[0])) return null;
  const part = parts[0] as unknown as DecisionPart;
  if (!SHARED.every((k) => part[k] === d[k])) return null;
  const { signals: _s, categories: _c, action: _a, safe: _sa, flagged: _f, ...rest } = part;
  return rest;
}

/** A stored part with the decision's shared fields back, in the order a part is made
 * (decision-parts.ts), so a check's decision reads back to the JSON it was made with. */
function fullPart(d: WithParts, part: CompactPart): DecisionPart {
  const { contentType, contentRef, ocrText, media, ...rest } = part;
  return {
    contentType,
    contentRef,
    signals: d.signals,
    ocrText,
    media,
    categories: d.categories,
    action: d.action,
    safe: d.safe,
    flagged: d.flagged,
    ...rest,
  } as DecisionPart;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
