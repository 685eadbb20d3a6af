/** Webhook delivery building blocks: signing, the HTTP client, payloads, delivery plans
 * (the egress guard is @cds/egress, retry schedules @cds/backoff). */
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

export { deliver } from './http-delivery';
export type { DeliveryRequest, DeliveryResult } from './http-delivery';

export { deriveWebhookSecretKey, sealSecret, openSecret, SecretBoxError } from './secret-box';
export { webhookEventsOf, WEBHOOK_SOURCE_TYPES, JOB_OUTCOME_TYPES, jobOf, testWebhookEvent, deliveryIdOf } from './webhook-payloads';
export type { WebhookPayload } from './webhook-payloads';
export { subscribersOf, failedTooLong } from './delivery-plan';
export type { WebhookSubscription } from './delivery-plan';
export { sendSigned, attemptRecord, EVENT_ID_HEADER, EVENT_TYPE_HEADER } from './signed-send';
export type { SignedSend, AttemptRef } from './signed-send';
