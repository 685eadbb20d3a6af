/** Webhook delivery building blocks: signing, the egress guard, the HTTP client, retry schedules. */
export {
  SIGNATURE_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  WebhookSignatureError,
  generateWebhookSecret,
  computeSignature,
  signPayload,
  verifySignature,
} from './signature';
export type { SignatureFailure, VerifyOptions } from './signature';

export { EgressRefusedError, checkEgressUrl, isRangeAllowed, resolveWithDns } from './egress-guard';
export type { EgressPolicy, EgressCheckOptions, EgressTarget, EgressRefusalReason, Resolver } from './egress-guard';
export { parseIp } from './ip-address';
export type { IpAddress } from './ip-address';
export { classifyIp } from './ip-range';
export type { IpRange } from './ip-range';

export { deliver } from './http-delivery';
export { pinnedRequestOptions, untilAborted } from './pinned-request';
export type { DeliveryRequest, DeliveryResult } from './http-delivery';

export {
  DEFAULT_RETRY_SCHEDULE,
  DEFAULT_RETRY_SCHEDULE_SPEC,
  MAX_RETRY_ATTEMPTS,
  MAX_RETRY_DELAY_MS,
  parseRetrySchedule,
  nextAttemptAt,
} from './retry-schedule';
export type { RetrySchedule } from './retry-schedule';
export { deriveWebhookSecretKey, sealSecret, openSecret, SecretBoxError } from './secret-box';
export { webhookEventsOf, WEBHOOK_SOURCE_TYPES, JOB_OUTCOME_TYPES, jobOf, testWebhookEvent, deliveryIdOf } from './webhook-payloads';
export type { WebhookPayload } from './webhook-payloads';
export { subscribersOf, failedTooLong } from './delivery-plan';
export type { WebhookSubscription } from './delivery-plan';
export { sendSigned, attemptRecord, EVENT_ID_HEADER, EVENT_TYPE_HEADER } from './signed-send';
export type { SignedSend, AttemptRef } from './signed-send';
