import { DecisionCreatedV2, envelope, EventEnvelope, ScoreMap, timeOrderedId } from '@cds/events';
import { LOCAL_TEXT_SIGNAL_FOLDING } from '@cds/providers';

/** The default policy's thresholds, as a check reports them. */
const THRESHOLDS: Record<keyof typeof LOCAL_TEXT_SIGNAL_FOLDING, number> = { sexual: 0.8, hate: 0.7, harassment: 0.7, violence: 0.7, 'self-harm': 0.5 };

/**
 * The event a text check of `content` logs, with the fields and sizes the service gives
 * it (one part sharing the decision's signals and verdict): what bench:floor's durable
 * endpoint appends. Not a decision of the service: the categories fold the scores the
 * way the default policy does, without its engine.
 */
export function floorDecisionEvent(content: string, metadata: Record<string, unknown>, scores: ScoreMap, model: string, ms: number): EventEnvelope {
  const decisionId = timeOrderedId();
  const signals = { local: scores };
  const categories = Object.entries(LOCAL_TEXT_SIGNAL_FOLDING).map(([category, names]) => {
    const score = Math.round(Math.max(...names.map((n) => scores[n] ?? 0)) * 1e4) / 1e4;
    const threshold = THRESHOLDS[category as keyof typeof THRESHOLDS];
    return { category, score, threshold, triggered: score >= threshold };
  });
  const flagged = categories.some((c) => c.triggered);
  const action = flagged ? 'block' : 'allow';
  const data: DecisionCreatedV2 = {
    decisionId,
    requestId: null,
    content,
    contentType: 'text',
    language: 'en',
    metadata,
    policyId: 'default',
    policyVersion: 0,
    provider: 'local',
    signals,
    parts: [
      {
        contentType: 'text',
        contentRef: null,
        signals,
        ocrText: null,
        media: null,
        categories,
        action,
        safe: !flagged,
        flagged,
        routes: Object.fromEntries(Object.keys(LOCAL_TEXT_SIGNAL_FOLDING).map((c) => [c, ['local']])),
        attempts: [{ provider: 'local', ok: true, ms, model }],
      },
    ],
    categories,
    action,
    safe: !flagged,
    flagged,
    latency: ms,
    cost: 0,
  };
  return envelope('decision.created', 2, 'default', decisionId, data);
}
