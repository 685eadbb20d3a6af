import { BUILTIN_POLICIES, decisionEvent } from '@cds/checks';
import { EventEnvelope, ScoreMap, timeOrderedId } from '@cds/events';
import { evaluate, foldSignals, parsePolicyYaml } from '@cds/policy';
import { LOCAL_TEXT_SIGNAL_FOLDING } from '@cds/providers';

const DEFAULT_POLICY = parsePolicyYaml(BUILTIN_POLICIES.default);
const ROUTES = Object.fromEntries(Object.keys(LOCAL_TEXT_SIGNAL_FOLDING).map((c) => [c, ['local']]));

/**
 * The event a text check of `content` logs under the default policy, made by the
 * service's own `decisionEvent` from the local provider's `scores`: what bench:floor's
 * durable endpoint appends. The verdict folds and evaluates the scores as a check does,
 * without the service's routing and provider chains.
 */
export function floorDecisionEvent(content: string, metadata: Record<string, unknown>, scores: ScoreMap, model: string, ms: number): EventEnvelope {
  const signals = { local: scores };
  const verdict = evaluate(DEFAULT_POLICY, foldSignals(scores), 'local');
  return decisionEvent(
    {
      tenantId: 'default',
      decisionId: timeOrderedId(),
      requestId: null,
      content,
      contentType: 'text',
      language: 'en',
      metadata,
      policyId: 'default',
      policyVersion: 0,
      latency: ms,
    },
    [
      {
        contentType: 'text',
        contentRef: null,
        signals,
        cost: 0,
        ocrText: null,
        media: null,
        routes: ROUTES,
        attempts: [{ provider: 'local', ok: true, ms, model }],
      },
    ],
    { overall: verdict, parts: [verdict] },
  );
}
