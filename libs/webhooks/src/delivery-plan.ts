/**
 * Which registered webhooks receive an event: enabled, subscribed to its type, and
 * registered before it happened (a new webhook is not sent the log's history).
 */
import { WebhookEventType } from '@cds/events';

export interface WebhookSubscription {
  webhookId: string;
  enabled: boolean;
  events: readonly string[];
  createdAt: string;
}

export function subscribersOf<W extends WebhookSubscription>(webhooks: readonly W[], type: WebhookEventType, occurredAt: string): W[] {
  return webhooks.filter((w) => w.enabled && w.events.includes(type) && w.createdAt <= occurredAt);
}

/** How long a webhook may fail continuously before it is disabled: true once exceeded. */
export function failedTooLong(failingSince: string | null, now: Date, disableAfterMs: number): boolean {
  return failingSince !== null && now.getTime() - Date.parse(failingSince) >= disableAfterMs;
}
