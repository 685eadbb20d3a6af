import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Principal, principalIdentity } from '@cds/auth';
import { invalid, notFound } from '@cds/errors';
import {
  DeliveryAttempted,
  envelope,
  WEBHOOK_EVENT_TYPES,
  WebhookCreated,
  WebhookDeleted,
  WebhookEventType,
  WebhookUpdated,
  WebhookUpdatedV1,
} from '@cds/events';
import { DeliveryAttemptDoc, READ_MODELS, WebhookDoc, WebhookReadModels } from '@cds/read-models';
import { attemptRecord, generateWebhookSecret, sendSigned, testWebhookEvent } from '@cds/webhooks';
import { EventWriter } from '@cds/write-path';
import { WebhookSecrets } from './webhook-secrets.service';
import { assertDeliverableUrl } from './webhook-url';
import { CreateWebhookDto, UpdateWebhookDto } from './webhooks.dto';
import { Webhook, WebhookCreated as CreatedWebhook, WebhookDelivery } from './webhooks.answers';

const view = (w: WebhookDoc): Webhook => ({
  id: w.webhookId,
  url: w.url,
  events: w.events,
  description: w.description,
  enabled: w.enabled,
  disabledReason: w.disabledReason,
  createdAt: w.createdAt,
  updatedAt: w.updatedAt,
});

const deliveryView = (a: DeliveryAttemptDoc): WebhookDelivery => ({
  deliveryId: a.deliveryId,
  timestamp: a.timestamp,
  status: a.status,
  responseCode: a.responseCode,
  attempt: a.attempt,
  eventId: a.eventId,
  eventType: a.eventType,
  durationMs: a.durationMs,
  error: a.error,
  nextAttemptAt: a.nextAttemptAt,
  url: a.url,
  test: a.test,
});

export function webhookEventTypes(names: readonly string[]): WebhookEventType[] {
  const unknown = names.filter((n) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw invalid('INVALID_WEBHOOK_EVENT', 'Unknown webhook event type', `${unknown.join(', ')}: events must be among ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  }
  return [...new Set(names)] as WebhookEventType[];
}

/** Webhook registration, changes, test deliveries and the delivery log of a tenant. */
@Injectable()
export class WebhooksService {
  constructor(
    @Inject(READ_MODELS) private readonly models: WebhookReadModels,
    private readonly writer: EventWriter,
    private readonly secrets: WebhookSecrets,
  ) {}

  async create(p: Principal, dto: CreateWebhookDto): Promise<CreatedWebhook> {
    const events = webhookEventTypes(dto.events);
    await assertDeliverableUrl(dto.url, this.secrets.egress);
    const secret = generateWebhookSecret();
    const webhookId = randomUUID();
    const event: WebhookCreated = envelope('webhook.created', 1, p.tenantId, webhookId, {
      webhookId,
      url: dto.url,
      events,
      description: dto.description ?? null,
      enabled: true,
      secretCiphertext: this.secrets.seal(secret),
      createdBy: principalIdentity(p),
    });
    await this.writer.write('webhooks', [event], p.requestId);
    const at = event.occurredAt;
    return {
      id: webhookId,
      url: dto.url,
      events,
      description: dto.description ?? null,
      enabled: true,
      disabledReason: null,
      createdAt: at,
      updatedAt: at,
      secret,
    };
  }

  async list(p: Principal): Promise<Webhook[]> {
    return (await this.models.listWebhooks(p.tenantId)).map(view);
  }

  async get(p: Principal, webhookId: string): Promise<Webhook> {
    return view(await this.find(p, webhookId));
  }

  async update(p: Principal, webhookId: string, dto: UpdateWebhookDto): Promise<Webhook> {
    const current = await this.find(p, webhookId);
    const changes: WebhookUpdatedV1['changes'] = {};
    if (dto.events !== undefined) changes.events = webhookEventTypes(dto.events);
    if (dto.url !== undefined && dto.url !== current.url) {
      await assertDeliverableUrl(dto.url, this.secrets.egress);
      changes.url = dto.url;
    }
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.enabled !== undefined) changes.enabled = dto.enabled;
    if (Object.keys(changes).length === 0) return view(current);
    const event: WebhookUpdated = envelope('webhook.updated', 1, p.tenantId, webhookId, { webhookId, changes, updatedBy: principalIdentity(p) });
    await this.writer.write('webhooks', [event], p.requestId);
    const disabledReason = changes.enabled === true ? null : current.disabledReason;
    return view({ ...current, ...changes, disabledReason, updatedAt: event.occurredAt });
  }

  /** 200 `{id, deleted: true}`; its pending deliveries are cancelled, its id answers 404 from then on. */
  async remove(p: Principal, webhookId: string): Promise<{ id: string; deleted: true }> {
    await this.find(p, webhookId);
    const event: WebhookDeleted = envelope('webhook.deleted', 1, p.tenantId, webhookId, { webhookId, deletedBy: principalIdentity(p) });
    await this.writer.write('webhooks', [event], p.requestId);
    return { id: webhookId, deleted: true };
  }

  /** One real signed delivery of a test event to the webhook's URL (enabled or not),
   * recorded as an attempt. No retries: the answer says how that one attempt went. */
  async test(p: Principal, webhookId: string, eventType: string) {
    const [type] = webhookEventTypes([eventType]);
    const webhook = await this.find(p, webhookId);
    const payload = testWebhookEvent(type);
    const result = await sendSigned({
      url: webhook.url,
      secret: this.secrets.open(webhook.secretCiphertext),
      payload,
      timeoutMs: this.secrets.timeoutMs,
      egress: this.secrets.egress,
    });
    const deliveryId = `dlv_test_${randomUUID().replace(/-/g, '')}`;
    const record = attemptRecord({ deliveryId, webhookId, eventId: payload.id, eventType: type }, 1, webhook.url, result, null, true);
    const event: DeliveryAttempted = envelope('webhook.delivery.attempted', 1, p.tenantId, deliveryId, record);
    await this.writer.write('deliveries', [event], p.requestId);
    return { success: result.ok, deliveryId, eventId: payload.id, responseCode: result.status, durationMs: result.durationMs, error: record.error };
  }

  async deliveries(p: Principal, webhookId: string, limit = 50): Promise<WebhookDelivery[]> {
    await this.find(p, webhookId);
    return (await this.models.listDeliveryAttempts(p.tenantId, webhookId, limit)).map(deliveryView);
  }

  private async find(p: Principal, webhookId: string): Promise<WebhookDoc> {
    const doc = await this.models.getWebhook(p.tenantId, webhookId);
    if (!doc) throw notFound('WEBHOOK_NOT_FOUND', 'Webhook not found', `no webhook ${webhookId} in this tenant`);
    return doc;
  }
}
