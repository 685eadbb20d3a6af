import { ScoreMap } from '@cds/events';
import { getOwn, setOwn, SignalFolding } from '@cds/policy';
import { badResponse, ProviderCallError, ProviderCallReason } from './provider-call.error';
import { listAt, recordAt } from './response-shape';

export const GOOGLE_VISION_PROVIDER = 'google-vision';

/** SafeSearch's likelihoods, each a signal of its own name. */
export const GOOGLE_VISION_SIGNALS = ['adult', 'racy', 'violence', 'medical', 'spoof'] as const;

/** `racy` (swimwear, lingerie) folds nowhere, as the local model's `sexual_suggestive`:
 * at the default threshold it would block beach photos. `medical`, `spoof` are informational. */
export const GOOGLE_VISION_SIGNAL_FOLDING: SignalFolding = Object.freeze({
  sexual: Object.freeze(['adult']),
  violence: Object.freeze(['violence']),
});

/** Likelihood → score. UNKNOWN gives no signal at all (nothing was said). LIKELY maps to
 * 0.8 so the default policy (sexual blocks at 0.8, violence flags at 0.7) acts from LIKELY up. */
export const GOOGLE_LIKELIHOOD_SCORES: Readonly<Record<string, number>> = Object.freeze({
  VERY_UNLIKELY: 0,
  UNLIKELY: 0.2,
  POSSIBLE: 0.5,
  LIKELY: 0.8,
  VERY_LIKELY: 1,
});

/** google.rpc.Code of an item error → reason; transient codes are retried. */
function itemErrorReason(code: unknown): { reason: ProviderCallReason; retryable: boolean } {
  switch (code) {
    case 3: // INVALID_ARGUMENT: bad image data
      return { reason: 'bad_request', retryable: false };
    case 7: // PERMISSION_DENIED
    case 16: // UNAUTHENTICATED
      return { reason: 'unauthorized', retryable: false };
    case 4: // DEADLINE_EXCEEDED
    case 8: // RESOURCE_EXHAUSTED
    case 10: // ABORTED
    case 13: // INTERNAL
    case 14: // UNAVAILABLE
      return { reason: 'provider_error', retryable: true };
    default:
      return { reason: 'provider_error', retryable: false };
  }
}

/** Signals of an images:annotate answer; `responses[0].error` becomes a ProviderCallError. */
export function googleVisionSignalsOf(json: unknown): ScoreMap {
  const p = GOOGLE_VISION_PROVIDER;
  const responses = listAt(p, recordAt(p, json, 'answer').responses, 'responses');
  if (responses.length === 0) throw badResponse(p, 'responses is empty');
  const response = recordAt(p, responses[0], 'responses[0]');
  if (response.error !== undefined) {
    const error = recordAt(p, response.error, 'responses[0].error');
    const { reason, retryable } = itemErrorReason(error.code);
    throw new ProviderCallError(p, reason, retryable, 200, typeof error.message === 'string' ? `${String(error.code)}: ${error.message}` : String(error.code));
  }
  const annotation = recordAt(p, response.safeSearchAnnotation, 'responses[0].safeSearchAnnotation');
  const signals: ScoreMap = {};
  for (const name of GOOGLE_VISION_SIGNALS) {
    const likelihood = annotation[name];
    if (likelihood === undefined || likelihood === 'UNKNOWN') continue;
    const score = typeof likelihood === 'string' ? getOwn(GOOGLE_LIKELIHOOD_SCORES, likelihood) : undefined;
    if (score === undefined) throw badResponse(p, `safeSearchAnnotation.${name} is not a likelihood: ${JSON.stringify(likelihood)}`);
    setOwn(signals, name, score);
  }
  return signals;
}

/** Cloud Vision answers 400 INVALID_ARGUMENT to a bad key: that is `unauthorized`. */
export function classifyGoogleError(status: number, body: unknown): ProviderCallReason | undefined {
  if (status !== 400 || typeof body !== 'object' || body === null) return undefined;
  const details = (body as { error?: { details?: unknown } }).error?.details;
  if (!Array.isArray(details)) return undefined;
  return details.some((d) => typeof d === 'object' && d !== null && /^API_KEY_/.test(String((d as { reason?: unknown }).reason))) ? 'unauthorized' : undefined;
}
