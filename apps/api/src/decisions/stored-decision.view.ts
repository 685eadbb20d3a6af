import { DecisionDoc } from '@cds/read-models';
import type { StoredDecision } from './decisions.answers';

/** The spec's Stored decision (decisionId, content, safe, action, timestamp, policyId)
 * and the further fields an auditor needs. */
export function storedDecision(d: DecisionDoc): StoredDecision {
  return {
    decisionId: d.decisionId,
    content: d.content,
    safe: d.safe,
    action: d.action,
    timestamp: d.timestamp,
    policyId: d.policyId,
    policyVersion: d.policyVersion,
    flagged: d.flagged,
    categories: d.categories,
    contentType: d.contentType,
    language: d.language,
    metadata: d.metadata,
    requestId: d.requestId,
    provider: d.provider,
    signals: d.signals,
    // The items scored: for an image its reference, media facts and the text read in it.
    parts: d.parts,
    latency: d.latency,
    cost: d.cost,
  };
}
