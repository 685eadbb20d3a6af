import { DecisionCreated, DecisionOcr, DecisionPart, VideoFrameScore } from '@cds/events';
import { ParsedPolicy, PolicyEvaluation } from '@cds/policy';
import { ContentScorer } from '../content-scorer.service';
import { decisionEvent, ScoredPart } from '../decision-parts';
import { flaggedSegments, VideoSegment } from './video-segments';

/** Each frame under the policy, and the video as a whole (its worst frame). */
export function judgeFrames(scorer: ContentScorer, policy: ParsedPolicy, frames: readonly VideoFrameScore[]) {
  return scorer.decideParts(policy, frames);
}

/** The parts of a video decision: one per sampled frame, `contentRef` the video's reference
 * with the frame's time (`...#t=12.5`). */
export function frameParts(
  contentRef: string,
  frames: readonly VideoFrameScore[],
  evidence: ReadonlyMap<number, string>,
  ocr: DecisionOcr | null = null,
): ScoredPart[] {
  return frames.map((f) => ({
    contentType: 'image',
    contentRef: `${contentRef}#t=${f.timestamp}`,
    signals: f.signals,
    cost: 0,
    ocrText: f.ocrText,
    ...(ocr && f.ocrText !== null ? { ocr } : {}),
    media: null,
  }));
}

export interface VideoDecisionFacts {
  tenantId: string;
  decisionId: string;
  contentRef: string;
  language: string;
  metadata: Record<string, unknown>;
  policyId: string;
  policyVersion: number;
  latency: number;
  /** How the frames' text was read (null when OCR is off). */
  ocr?: DecisionOcr | null;
}

/** The one `decision.created` of a video: contentType video, a part per frame with its
 * number, time and evidence. */
export function videoDecisionEvent(
  f: VideoDecisionFacts,
  frames: readonly VideoFrameScore[],
  verdicts: { overall: PolicyEvaluation; parts: PolicyEvaluation[] },
  evidence: ReadonlyMap<number, string>,
): DecisionCreated {
  const scored = frameParts(f.contentRef, frames, evidence, f.ocr ?? null);
  const event = decisionEvent(
    {
      tenantId: f.tenantId,
      decisionId: f.decisionId,
      requestId: null,
      content: f.contentRef,
      contentType: 'video',
      language: f.language,
      metadata: f.metadata,
      policyId: f.policyId,
      policyVersion: f.policyVersion,
      latency: f.latency,
    },
    scored,
    { overall: verdicts.overall, parts: verdicts.parts.slice(0, scored.length) },
  );
  event.data.parts = event.data.parts.map((p, i) => ({
    ...p,
    frame: { frameNumber: frames[i].index, timestamp: frames[i].timestamp, evidenceSha256: evidence.get(frames[i].index) ?? null },
  }));
  if (event.data.provider === '') event.data.provider = 'local';
  return event;
}

/** Spans of consecutive flagged frames of a stored video decision. */
export function segmentsOf(parts: readonly DecisionPart[]): VideoSegment[] {
  return flaggedSegments(
    parts
      .filter((p) => p.frame)
      .map((p) => ({
        timestamp: p.frame!.timestamp,
        flagged: p.flagged,
        action: p.action,
        triggered: p.categories.filter((c) => c.triggered).map((c) => c.category),
      })),
  );
}
