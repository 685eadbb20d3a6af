/**
 * One signed POST of a webhook payload through the egress guard, and the attempt record
 * it leaves on the log. Shared by the dispatcher (deliveries and retries) and the api's
 * `POST /v1/webhooks/{id}/test`, so both send exactly the same way.
 */
import { DeliveryAttemptedV1 } from '@cds/events';
import { EgressPolicy } from '@cds/egress';
import { deliver, DeliveryResult } from './http-delivery';
import { SIGNATURE_HEADER, signPayload } from './signature';

export const EVENT_ID_HEADER = 'x-service-event-id';
export const EVENT_TYPE_HEADER = 'x-service-event-type';
/** Enough of a receiver's answer to explain a failure; the rest is not read. */
const MAX_RESPONSE_BYTES = 4096;

export interface SignedSend {
  url: string;
  secret: string;
  payload: { id: string; type: string };
  timeoutMs: number;
  egress: EgressPolicy;
  now?: Date;
}

export function sendSigned(s: SignedSend): Promise<DeliveryResult> {
  const body = JSON.stringify(s.payload);
  const t = Math.floor((s.now ?? new Date()).getTime() / 1000);
  return deliver({
    url: s.url,
    body,
    headers: {
      [SIGNATURE_HEADER]: signPayload(s.secret, body, t),
      [EVENT_ID_HEADER]: s.payload.id,
      [EVENT_TYPE_HEADER]: s.payload.type,
      'user-agent': 'cds-webhooks/1',
    },
    timeoutMs: s.timeoutMs,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    egress: s.egress,
  });
}

export interface AttemptRef {
  deliveryId: string;
  webhookId: string | null;
  eventId: string;
  eventType: string;
}

/** The `webhook.delivery.attempted` body for one attempt's result. */
export function attemptRecord(
  ref: AttemptRef,
  attempt: number,
  url: string,
  result: DeliveryResult,
  nextAttemptAt: Date | null,
  test = false,
): DeliveryAttemptedV1 {
  return {
    ...ref,
    attempt,
    status: result.ok ? 'succeeded' : 'failed',
    url,
    responseCode: result.status,
    durationMs: result.durationMs,
    error: result.ok ? null : (result.error ?? 'failed').slice(0, 500),
    nextAttemptAt: result.ok || !nextAttemptAt ? null : nextAttemptAt.toISOString(),
    test,
  };
}
