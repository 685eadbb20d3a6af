/** Webhooks and keys (README "Webhooks", "Keys").
 * The answers are the service's OpenAPI schemas (openapi.generated.ts, `npm run sdk:types`). */
import type { components } from './openapi.generated';

type Schemas = components['schemas'];

export type WebhookEventType = Schemas['WebhookEventType'];

export type CreateWebhookRequest = Schemas['CreateWebhookDto'];

/** `description: null` clears it. */
export type UpdateWebhookRequest = Schemas['UpdateWebhookDto'];

/** `disabledReason`: why the service disabled it, else null. */
export type Webhook = Schemas['Webhook'];

/** `secret` (`whsec_…`) is shown only here: keep it to verify deliveries. */
export type CreatedWebhook = Schemas['WebhookCreated'];

export type WebhookTestResult = Schemas['WebhookTestResult'];

/** `nextAttemptAt`: null once delivered or given up. */
export type WebhookDelivery = Schemas['WebhookDelivery'];

/** What a receiver gets: `POST` with this JSON body. `id` is the same on every retry. */
export interface WebhookEvent<D = Record<string, unknown>> {
  id: string;
  type: string;
  createdAt: string;
  data: D & { id: string };
}

export type Scope = Schemas['ApiKey']['scopes'][number];

export type CreateKeyRequest = Schemas['CreateKeyDto'];

export type ApiKey = Schemas['ApiKey'];

/** `key` is shown once. */
export type CreatedApiKey = Schemas['ApiKeyCreated'];
