import { timeOrderedId } from '@cds/events';
import { DecisionDoc, DecisionReadModels } from '@cds/read-models';
import { idempotentDecisionId } from './decision-id';

/**
 * The idempotency of every check endpoint: the same requestId (or Idempotency-Key) from
 * the same tenant answers the first decision. Concurrent retries in this process share
 * one run; a retry served by another replica names the same decision id, and the read
 * models keep the first event of an id, so the answer is read back from them.
 */
export class IdempotentChecks<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  constructor(
    private readonly readModels: DecisionReadModels,
    private readonly answerOf: (doc: DecisionDoc) => T,
  ) {}

  /** The request's id is the body's `requestId`, or else `idempotencyKey` (the
   * Idempotency-Key header); without either, every call is a new decision, named by a
   * time-ordered id. */
  run(
    tenantId: string,
    bodyRequestId: string | undefined,
    idempotencyKey: string | null,
    check: (decisionId: string, requestId: string | null) => Promise<{ decisionId: string; answer: T }>,
  ): Promise<T> {
    const requestId = bodyRequestId ?? idempotencyKey;
    if (!requestId) return check(timeOrderedId(), null).then((r) => r.answer);
    const k = `${tenantId}\u0000${requestId}`;
    const running = this.inFlight.get(k);
    if (running) return running;
    const p = this.once(tenantId, requestId, check).finally(() => this.inFlight.delete(k));
    this.inFlight.set(k, p);
    return p;
  }

  private async once(
    tenantId: string,
    requestId: string,
    check: (decisionId: string, requestId: string) => Promise<{ decisionId: string; answer: T }>,
  ): Promise<T> {
    const earlier = await this.readModels.findDecisionByRequestId(tenantId, requestId);
    if (earlier) return this.answerOf(earlier);
    const mine = await check(idempotentDecisionId(tenantId, requestId), requestId);
    const stored = await this.readModels.getDecision(tenantId, mine.decisionId);
    return stored ? this.answerOf(stored) : mine.answer;
  }
}
