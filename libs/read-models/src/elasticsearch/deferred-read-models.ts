import { DomainError } from '@cds/errors';
import { ReadModels } from '../read-models.port';
import { WEBHOOK_READ_METHODS } from '../webhook-read-models.port';

/** The calls an api replica makes (ReadModels and WebhookReadModels). Only these exist
 * on the placeholder: anything else (e.g. a Nest lifecycle hook looked up by name) is
 * undefined, as it is on the real adapter. */
const DEFERRED_CALLS = new Set<string>([
  'applyBatch',
  'waitFor',
  'getDecision',
  'findDecisionByRequestId',
  'listDecisions',
  'getPolicy',
  'listPolicies',
  'findKeyByHash',
  'getKey',
  'listKeys',
  'getGuardrailDecision',
  'getSkillPin',
  'listSessionActions',
  'getGuardrailPolicy',
  'getGuardrailPolicyVersion',
  'listGuardrailPolicyHistory',
  'guardrailCounts',
  ...WEBHOOK_READ_METHODS,
]);

/**
 * Read models that are still being opened (Elasticsearch down or starting when the api
 * started), so the process can listen at once: `healthy()` says false (readiness 503),
 * `close()` gives up the opening, and any other call waits up to `waitMs` for the
 * opening, then fails with 503 READ_MODELS_UNAVAILABLE (retryable; nothing was done).
 * Once open, every call goes straight to the real adapter.
 */
export function deferredReadModels(opening: Promise<ReadModels>, o: { waitMs: number; describe: string; abort: () => void }): ReadModels {
  let real: ReadModels | null = null;
  let closed = false;
  opening.then(
    (rm) => {
      if (closed) void rm.close();
      else real = rm;
    },
    () => undefined,
  );
  const unavailable = () =>
    new DomainError('unavailable', 'READ_MODELS_UNAVAILABLE', 'Read models are not available', `${o.describe} is not reachable yet; retry shortly`);
  const opened = (): Promise<ReadModels> =>
    new Promise<ReadModels>((resolve, reject) => {
      const timer = setTimeout(() => reject(unavailable()), o.waitMs);
      opening.then(
        (rm) => (clearTimeout(timer), resolve(rm)),
        () => (clearTimeout(timer), reject(unavailable())),
      );
    });

  return new Proxy({} as ReadModels, {
    get(_target, prop) {
      if (real) {
        const value = Reflect.get(real, prop, real);
        return typeof value === 'function' ? value.bind(real) : value;
      }
      if (typeof prop === 'symbol') return undefined;
      if (prop === 'healthy') return async () => false;
      // Nothing applied that this process knows of.
      if (prop === 'appliedNextOffsets') return () => new Map<string, number>();
      if (prop === 'close') {
        return async () => {
          closed = true;
          o.abort();
        };
      }
      if (prop === 'generation') {
        return () => {
          throw unavailable();
        };
      }
      if (!DEFERRED_CALLS.has(prop)) return undefined;
      return async (...args: unknown[]) => {
        const rm = await opened();
        return (rm as unknown as Record<string, (...a: unknown[]) => unknown>)[prop](...args);
      };
    },
  });
}
