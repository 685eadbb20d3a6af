import { DomainError } from '@cds/errors';
import { EncodedApply, ReadModels } from '../read-models.port';
import type { LiveGenerations } from '../generations.port';

/**
 * Read models that are still being opened (Elasticsearch down or starting when the api
 * started), so the process can listen at once: `healthy()` says false (readiness 503),
 * `close()` gives up the opening, and any other call waits up to `waitMs` for the
 * opening, then fails with 503 READ_MODELS_UNAVAILABLE (retryable; nothing was done).
 * Once open, every call goes straight to the real adapter.
 */
export class DeferredReadModels implements ReadModels {
  private real: ReadModels | null = null;
  private closed = false;

  constructor(
    private readonly opening: Promise<ReadModels>,
    private readonly o: { waitMs: number; describe: string; abort: () => void },
  ) {
    opening.then(
      (rm) => {
        if (this.closed) void rm.close();
        else this.real = rm;
      },
      () => undefined,
    );
  }

  getDecision(...a: Parameters<ReadModels['getDecision']>) {
    return this.open().then((rm) => rm.getDecision(...a));
  }
  findDecisionByRequestId(...a: Parameters<ReadModels['findDecisionByRequestId']>) {
    return this.open().then((rm) => rm.findDecisionByRequestId(...a));
  }
  listDecisions(...a: Parameters<ReadModels['listDecisions']>) {
    return this.open().then((rm) => rm.listDecisions(...a));
  }
  getPolicy(...a: Parameters<ReadModels['getPolicy']>) {
    return this.open().then((rm) => rm.getPolicy(...a));
  }
  listPolicies(...a: Parameters<ReadModels['listPolicies']>) {
    return this.open().then((rm) => rm.listPolicies(...a));
  }
  findKeyByHash(...a: Parameters<ReadModels['findKeyByHash']>) {
    return this.open().then((rm) => rm.findKeyByHash(...a));
  }
  getKey(...a: Parameters<ReadModels['getKey']>) {
    return this.open().then((rm) => rm.getKey(...a));
  }
  listKeys(...a: Parameters<ReadModels['listKeys']>) {
    return this.open().then((rm) => rm.listKeys(...a));
  }
  getGuardrailDecision(...a: Parameters<ReadModels['getGuardrailDecision']>) {
    return this.open().then((rm) => rm.getGuardrailDecision(...a));
  }
  getSkillPin(...a: Parameters<ReadModels['getSkillPin']>) {
    return this.open().then((rm) => rm.getSkillPin(...a));
  }
  listSessionActions(...a: Parameters<ReadModels['listSessionActions']>) {
    return this.open().then((rm) => rm.listSessionActions(...a));
  }
  getGuardrailPolicy(...a: Parameters<ReadModels['getGuardrailPolicy']>) {
    return this.open().then((rm) => rm.getGuardrailPolicy(...a));
  }
  getGuardrailPolicyVersion(...a: Parameters<ReadModels['getGuardrailPolicyVersion']>) {
    return this.open().then((rm) => rm.getGuardrailPolicyVersion(...a));
  }
  listGuardrailPolicyHistory(...a: Parameters<ReadModels['listGuardrailPolicyHistory']>) {
    return this.open().then((rm) => rm.listGuardrailPolicyHistory(...a));
  }
  guardrailCounts(...a: Parameters<ReadModels['guardrailCounts']>) {
    return this.open().then((rm) => rm.guardrailCounts(...a));
  }
  getWebhook(...a: Parameters<ReadModels['getWebhook']>) {
    return this.open().then((rm) => rm.getWebhook(...a));
  }
  listWebhooks(...a: Parameters<ReadModels['listWebhooks']>) {
    return this.open().then((rm) => rm.listWebhooks(...a));
  }
  webhookFailingSince(...a: Parameters<ReadModels['webhookFailingSince']>) {
    return this.open().then((rm) => rm.webhookFailingSince(...a));
  }
  getDelivery(...a: Parameters<ReadModels['getDelivery']>) {
    return this.open().then((rm) => rm.getDelivery(...a));
  }
  listPendingDeliveries(...a: Parameters<ReadModels['listPendingDeliveries']>) {
    return this.open().then((rm) => rm.listPendingDeliveries(...a));
  }
  listDeliveryAttempts(...a: Parameters<ReadModels['listDeliveryAttempts']>) {
    return this.open().then((rm) => rm.listDeliveryAttempts(...a));
  }
  getBatch(...a: Parameters<ReadModels['getBatch']>) {
    return this.open().then((rm) => rm.getBatch(...a));
  }
  applyBatch(...a: Parameters<ReadModels['applyBatch']>) {
    return this.open().then((rm) => rm.applyBatch(...a));
  }
  waitFor(...a: Parameters<ReadModels['waitFor']>) {
    return this.open().then((rm) => rm.waitFor(...a));
  }

  generation(): string {
    if (!this.real) throw this.unavailable();
    return this.real.generation();
  }
  /** Nothing applied that this process knows of, until open. */
  appliedNextOffsets(): Map<string, number> {
    return this.real ? this.real.appliedNextOffsets() : new Map();
  }
  liveGenerations(): (ReadModels & LiveGenerations) | null {
    return this.real ? this.real.liveGenerations() : null;
  }
  encodedApply(): EncodedApply | null {
    return this.real ? this.real.encodedApply() : null;
  }
  async healthy(): Promise<boolean> {
    return this.real ? this.real.healthy() : false;
  }
  async close(): Promise<void> {
    if (this.real) return this.real.close();
    this.closed = true;
    this.o.abort();
  }

  /** The adapter once open: at once when it is, else waiting up to `waitMs` for it. */
  private open(): Promise<ReadModels> {
    if (this.real) return Promise.resolve(this.real);
    return new Promise<ReadModels>((resolve, reject) => {
      const timer = setTimeout(() => reject(this.unavailable()), this.o.waitMs);
      this.opening.then(
        (rm) => (clearTimeout(timer), resolve(rm)),
        () => (clearTimeout(timer), reject(this.unavailable())),
      );
    });
  }

  private unavailable(): DomainError {
    return new DomainError('unavailable', 'READ_MODELS_UNAVAILABLE', 'Read models are not available', `${this.o.describe} is not reachable yet; retry shortly`);
  }
}
