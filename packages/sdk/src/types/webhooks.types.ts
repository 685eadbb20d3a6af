/** Webhooks and keys (README "Webhooks", "Keys"). */

export type WebhookEventType =
  | 'decision.created'
  | 'decision.flagged'
  | 'decision.blocked'
  | 'agent.guardrail.blocked'
  | 'agent.guardrail.approval_required'
  | 'moderation.completed'
  | 'moderation.failed';

export interface CreateWebhookRequest {
  url: string;
  events: WebhookEventType[];
  description?: string;
}

/** `description: null` clears it. */
export interface UpdateWebhookRequest {
  url?: string;
  events?: WebhookEventType[];
  description?: string | null;
  enabled?: boolean;
}

export interface Webhook {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  /** Why the service disabled it, else null. */
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CreatedWebhook extends Webhook {
  /** `whsec_…`, shown only here: keep it to verify deliveries. */
  secret: string;
}

export interface WebhookTestResult {
  success: boolean;
  deliveryId: string;
  eventId: string;
  responseCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface WebhookDelivery {
  deliveryId: string;
  timestamp: string;
  status: 'succeeded' | 'failed';
  responseCode: number | null;
  attempt: number;
  eventId: string;
  eventType: string;
  durationMs: number;
  error: string | null;
  /** null once delivered or given up. */
  nextAttemptAt: string | null;
  url: string;
  test: boolean;
}

/** What a receiver gets: `POST` with this JSON body. `id` is the same on every retry. */
export interface WebhookEvent<D = Record<string, unknown>> {
  id: string;
  type: string;
  createdAt: string;
  data: D & { id: string };
}

export type Scope = 'checks' | 'policies' | 'decisions' | 'guardrails' | 'webhooks' | 'keys';

export interface CreateKeyRequest {
  name: string;
  scopes: Scope[];
  tenantId?: string;
}

export interface ApiKey {
  id: string;
  name: string;
  scopes: Scope[];
  tenantId: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface CreatedApiKey extends ApiKey {
  /** Shown once. */
  key: string;
}
