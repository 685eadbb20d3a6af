import { EventEnvelope } from './envelope';
import { DecisionCreatedV2, DecisionPart } from './domain-events';
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

/** An envelope as the JSON text the log stores. */
export function encodeEvent(e: EventEnvelope): string {
  if (e.type !== 'decision.created' || e.version !== 2) return JSON.stringify(e);
  const data = e.data as unknown as DecisionCreatedV2;
  const parts = data.parts;
  if (!Array.isArray(parts) || parts.length !== 1) return JSON.stringify(e);
  const part = parts[0];
  // Only what the part holds as the very same values: the decoded event is then equal to
  // this one, to its JSON.
  if (!SHARED.every((k) => part[k] === data[k])) return JSON.stringify(e);
  const { signals: _s, categories: _c, action: _a, safe: _sa, flagged: _f, ...rest } = part;
  return JSON.stringify({ ...e, version: DECISION_STORED_VERSION, data: { ...data, parts: [rest satisfies CompactPart] } });
}

/** An envelope as read from the log, in the form its upcasters start from: a v3
 * `decision.created` becomes the v2 it was stored from (EventSchemaError when it cannot);
 * anything else is returned as is. */
export function liftStoredForm(e: EventEnvelope): EventEnvelope {
  if (e.type !== 'decision.created' || e.version !== DECISION_STORED_VERSION) return e;
  const data = e.data as Record<string, unknown>;
  const parts = data?.parts;
  if (!Array.isArray(parts) || parts.length !== 1 || typeof parts[0] !== 'object' || parts[0] === null || Array.isArray(parts[0])) {
    throw new EventSchemaError(`decision.created v${DECISION_STORED_VERSION}: field data.parts must hold one part`);
  }
  const { contentType, contentRef, ocrText, media, ...rest } = parts[0] as CompactPart;
  // In the order a part is made (decision-parts.ts), so the JSON of a decision read back
  // is the JSON it was made with.
  const part = {
    contentType,
    contentRef,
    signals: data.signals,
    ocrText,
    media,
    categories: data.categories,
    action: data.action,
    safe: data.safe,
    flagged: data.flagged,
    ...rest,
  };
  return { ...e, version: 2, data: { ...data, parts: [part] } as unknown as EventEnvelope['data'] };
}
