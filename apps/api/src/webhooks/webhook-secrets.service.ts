import { Injectable } from '@nestjs/common';
import { AppConfig } from '@cds/config';
import { deriveWebhookSecretKey, openSecret, sealSecret } from '@cds/webhooks';
import { EgressPolicy } from '@cds/egress';
import { AdminKey } from '../keys/admin-key';

/** Seals and opens webhook signing secrets under WEBHOOK_SECRET_KEY, or a key derived
 * from the admin key when unset (the worker derives the same one). */
@Injectable()
export class WebhookSecrets {
  private readonly key: Buffer;
  readonly egress: EgressPolicy;
  readonly timeoutMs: number;

  constructor(config: AppConfig, admin: AdminKey) {
    this.key = deriveWebhookSecretKey(config.WEBHOOK_SECRET_KEY ?? admin.key);
    this.egress = { allowLoopback: config.EGRESS_ALLOW_LOOPBACK, allowPrivate: config.EGRESS_ALLOW_PRIVATE };
    this.timeoutMs = config.WEBHOOK_TIMEOUT_MS;
  }

  seal(secret: string): string {
    return sealSecret(this.key, secret);
  }

  open(box: string): string {
    return openSecret(this.key, box);
  }
}
