import { DecisionCreated, DecisionCreatedV2, DecisionMedia, DecisionOcr, DecisionPart, envelope, ProviderAttempt, ScoreMap } from '@cds/events';
import { PolicyEvaluation } from '@cds/policy';
import { mergeBy, providerOf } from './content-scorer.service';

/** An item scored, before the policy is applied. */
export interface ScoredPart {
  contentType: 'text' | 'image' | 'video';
  contentRef: string | null;
  signals: Record<string, ScoreMap>;
  cost: number;
  ocrText: string | null;
  /** How ocrText was read (image parts with OCR on). */
  ocr?: DecisionOcr | null;
  media: DecisionMedia | null;
  routes?: Record<string, string[]>;
  attempts?: ProviderAttempt[];
}

export function toPart(p: ScoredPart, verdict: PolicyEvaluation, signals: Record<string, ScoreMap> = p.signals): DecisionPart {
  return {
    contentType: p.contentType,
    contentRef: p.contentRef,
    signals,
    ocrText: p.ocrText,
    ...(p.ocr ? { ocr: p.ocr } : {}),
    media: p.media,
    categories: verdict.categories,
    action: verdict.action,
    safe: verdict.safe,
    flagged: verdict.flagged,
    ...(p.routes ? { routes: p.routes } : {}),
    ...(p.attempts?.length ? { attempts: p.attempts } : {}),
  };
}

export interface DecisionFacts {
  tenantId: string;
  decisionId: string;
  requestId: string | null;
  content: string;
  contentType: DecisionCreatedV2['contentType'];
  language: string;
  metadata: Record<string, unknown>;
  policyId: string;
  policyVersion: number;
  latency: number;
}

/** The one `decision.created` (v2) of a check, whatever it scored. A decision of one part
 * holds that part's signals and verdict as the part's own objects, which the log stores
 * once (event-codec.ts). */
export function decisionEvent(
  f: DecisionFacts,
  scored: readonly ScoredPart[],
  verdicts: { overall: PolicyEvaluation; parts: PolicyEvaluation[] },
): DecisionCreated {
  const signals = mergeBy(scored.map((p) => p.signals));
  const cost = Math.round(scored.reduce((sum, p) => sum + p.cost, 0) * 1e6) / 1e6;
  return envelope('decision.created', 2, f.tenantId, f.decisionId, {
    decisionId: f.decisionId,
    requestId: f.requestId,
    content: f.content,
    contentType: f.contentType,
    language: f.language,
    metadata: f.metadata,
    policyId: f.policyId,
    policyVersion: f.policyVersion,
    provider: providerOf(signals),
    signals,
    parts: scored.map((p, i) => toPart(p, verdicts.parts[i], scored.length === 1 ? signals : p.signals)),
    categories: verdicts.overall.categories,
    action: verdicts.overall.action,
    safe: verdicts.overall.safe,
    flagged: verdicts.overall.flagged,
    latency: f.latency,
    cost,
  });
}
