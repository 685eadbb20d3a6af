import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { tracing } from '@cds/tracing';
import { Principal, principalIdentity } from '@cds/auth';
import { AppConfig } from '@cds/config';
import { DomainError, invalid, notFound } from '@cds/errors';
import { BatchAccepted, BatchItemResult, envelope } from '@cds/events';
import { BatchDoc, READ_MODELS, WebhookReadModels } from '@cds/read-models';
import { generateWebhookSecret } from '@cds/webhooks';
import { EventWriter } from '@cds/write-path';
import { WebhookSecrets } from '../webhooks/webhook-secrets.service';
import { assertDeliverableUrl } from '../webhooks/webhook-url';
import { BatchChecker, ImageIntake } from '@cds/checks';
import { AsyncBatchCheckDto, BatchCheckDto } from './batches.dto';
import { AsyncBatch } from './batches.answers';

const view = (b: BatchDoc): AsyncBatch => ({
  batchId: b.batchId,
  status: b.status,
  policyId: b.policyId,
  totalItems: b.totalItems,
  webhookUrl: b.webhookUrl,
  createdAt: b.createdAt,
  completedAt: b.completedAt,
  succeeded: b.succeeded,
  failed: b.failed,
  items: b.results,
  error: b.error,
});

/** POST /v1/batch/check (synchronous), POST /v1/batch/check/async and GET /v1/batch/{id}. */
@Injectable()
export class BatchesService {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: WebhookReadModels,
    private readonly checker: BatchChecker,
    private readonly writer: EventWriter,
    private readonly secrets: WebhookSecrets,
    private readonly config: AppConfig,
    private readonly images: ImageIntake,
  ) {}

  /** With an `Idempotency-Key`, item i is the check `batch-sync:<key>:<i>`: the same batch
   * sent again answers the decisions already made, none new. */
  async checkNow(p: Principal, dto: BatchCheckDto, idempotencyKey: string | null = null): Promise<{ items: BatchItemResult[] }> {
    this.checker.assertSize(dto.items.length, this.config.BATCH_MAX_ITEMS);
    await this.checker.assertPolicy(p.tenantId, dto.policyId);
    const requestIdOf = idempotencyKey === null ? undefined : (i: number) => `batch-sync:${idempotencyKey}:${i}`;
    return { items: await this.checker.check(p, dto.policyId, dto.items, { requestIdOf }) };
  }

  /** Recorded as a job (`batch.accepted`); checked in the background; the outcome goes to
   * `webhookUrl` as `moderation.completed` (or `moderation.failed`), signed with the
   * secret of the tenant's webhook registered at that URL or, when there is none, with
   * `webhookSecret`, returned here once. */
  async accept(p: Principal, dto: AsyncBatchCheckDto) {
    this.checker.assertSize(dto.items.length, this.config.ASYNC_BATCH_MAX_ITEMS);
    await assertDeliverableUrl(dto.webhookUrl, this.secrets.egress, 'webhookUrl');
    await this.checker.assertPolicy(p.tenantId, dto.policyId);
    const registered = (await this.readModels.listWebhooks(p.tenantId)).find((w) => w.url === dto.webhookUrl);
    const webhookSecret = registered ? null : generateWebhookSecret();
    const batchId = randomUUID();
    const items = await Promise.all(
      dto.items.map(async (i) => ({
        id: i.id,
        content: await this.storedContent(p, i.id, i.contentType, i.content),
        ...(i.contentType ? { contentType: i.contentType } : {}),
        ...(i.metadata ? { metadata: i.metadata } : {}),
      })),
    );
    tracing().active().setAttribute('cds.batch_id', batchId);
    const event: BatchAccepted = envelope('batch.accepted', 1, p.tenantId, batchId, {
      batchId,
      policyId: dto.policyId,
      items,
      webhookUrl: dto.webhookUrl,
      signingWebhookId: registered?.webhookId ?? null,
      secretCiphertext: webhookSecret ? this.secrets.seal(webhookSecret) : null,
      acceptedBy: principalIdentity(p),
    });
    await this.writer.write('jobs', [event], p.requestId);
    return {
      batchId,
      status: 'processing' as const,
      totalItems: items.length,
      ...(webhookSecret ? { webhookSecret } : { signingWebhookId: registered!.webhookId }),
    };
  }

  /** Events never carry image bytes: an inline image is stored first and the item names
   * it by its `media:sha256:` reference. An inline image that cannot be read refuses the
   * batch (422 naming the item), since it could never be checked. */
  private async storedContent(p: Principal, id: string, contentType: string | undefined, content: string): Promise<string> {
    if (contentType !== 'image') return content;
    try {
      return await this.images.storeInline(p.tenantId, content);
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'invalid') throw invalid(err.code, err.message, `item ${id}: ${err.details}`);
      throw err;
    }
  }

  async get(p: Principal, batchId: string): Promise<AsyncBatch> {
    const doc = await this.readModels.getBatch(p.tenantId, batchId);
    if (!doc || doc.kind === 'video') throw notFound('BATCH_NOT_FOUND', 'Batch not found', `no batch ${batchId} in this tenant`);
    return view(doc);
  }
}
