import { WEBHOOK_EVENT_TYPES, WebhookEventType } from '@cds/events';
import { Named, Extends, Field } from '../openapi/answer-fields';
import { alwaysTrue, arr, bool, dateTime, int, nullable, num, oneOfValues, ref, str, uuid } from '../openapi/schema-builders';

/** The event names a webhook may subscribe to: a named schema the webhook bodies refer to. */
export const WEBHOOK_EVENT_TYPE_SCHEMA = oneOfValues(WEBHOOK_EVENT_TYPES);

/** The answers of /v1/webhooks: the spec's Webhook, without the secret (shown once, at creation). */
@Named()
export class Webhook {
  @Field(uuid()) id!: string;
  @Field(str()) url!: string;
  @Field(arr(ref('WebhookEventType'))) events!: WebhookEventType[];
  @Field(nullable(str())) description!: string | null;
  @Field(bool()) enabled!: boolean;
  @Field(nullable(str('why the service disabled it, else null'))) disabledReason!: string | null;
  @Field(dateTime()) createdAt!: string;
  @Field(dateTime()) updatedAt!: string;
}

@Named()
@Extends(Webhook)
export class WebhookCreated extends Webhook {
  @Field(str('signing secret, shown once')) secret!: string;
}

@Named()
export class WebhookList {
  @Field(arr(ref(Webhook))) webhooks!: Webhook[];
}

@Named()
export class WebhookDeleted {
  @Field(uuid()) id!: string;
  @Field(alwaysTrue()) deleted!: true;
}

@Named()
export class WebhookTestResult {
  @Field(bool()) success!: boolean;
  @Field(str()) deliveryId!: string;
  @Field(str()) eventId!: string;
  @Field(nullable(int())) responseCode!: number | null;
  @Field(num()) durationMs!: number;
  @Field(nullable(str())) error!: string | null;
}

/** One attempt, as GET /v1/webhooks/{id}/deliveries lists it. */
@Named()
export class WebhookDelivery {
  @Field(dateTime()) timestamp!: string;
  @Field(oneOfValues(['succeeded', 'failed'])) status!: 'succeeded' | 'failed';
  @Field(nullable(int())) responseCode!: number | null;
  @Field(str()) deliveryId!: string;
  @Field(int()) attempt!: number;
  @Field(str()) eventId!: string;
  @Field(str()) eventType!: string;
  @Field(num()) durationMs!: number;
  @Field(nullable(str())) error!: string | null;
  @Field(nullable(dateTime('null once delivered or given up'))) nextAttemptAt!: string | null;
  @Field(str()) url!: string;
  @Field(bool()) test!: boolean;
}

@Named()
export class WebhookDeliveryList {
  @Field(arr(ref(WebhookDelivery))) deliveries!: WebhookDelivery[];
}
