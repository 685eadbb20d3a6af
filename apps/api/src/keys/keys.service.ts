import { Inject, Injectable } from '@nestjs/common';
import { DomainError, notFound } from '@cds/errors';
import { envelope, KeyCreated, KeyRevoked } from '@cds/events';
import { generateApiKey, Principal, Scope } from '@cds/auth';
import { KeyDoc, KeyReadModels, READ_MODELS } from '@cds/read-models';
import { EventWriter } from '@cds/write-path';
import { randomUUID } from 'node:crypto';
import { ApiKey, ApiKeyCreated } from './keys.answers';

const view = (d: KeyDoc): ApiKey => ({
  id: d.keyId,
  name: d.name,
  // The scopes the key was created with, checked against SCOPES then (the log keeps strings).
  scopes: d.scopes as Scope[],
  tenantId: d.tenantId,
  prefix: d.prefix,
  createdAt: d.createdAt,
  revokedAt: d.revokedAt,
});

/**
 * API keys. A key may create keys only within its own tenant and only with scopes it
 * holds; the bootstrap key may create them for any tenant.
 */
@Injectable()
export class KeysService {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: KeyReadModels,
    private readonly writer: EventWriter,
  ) {}

  async create(p: Principal, input: { name: string; scopes: Scope[]; tenantId?: string }): Promise<ApiKeyCreated> {
    const tenantId = input.tenantId ?? p.tenantId;
    if (tenantId !== p.tenantId && !p.bootstrap) {
      throw new DomainError(
        'forbidden',
        'TENANT_FORBIDDEN',
        'Cannot create keys for another tenant',
        'only the bootstrap key may create keys in another tenant',
      );
    }
    const missing = input.scopes.filter((s) => !p.scopes.includes(s));
    if (missing.length > 0) {
      throw new DomainError('forbidden', 'SCOPE_ESCALATION', 'Cannot grant scopes this key does not hold', `missing: ${missing.join(', ')}`);
    }
    const { key, hash, prefix } = generateApiKey();
    const keyId = randomUUID();
    const event: KeyCreated = envelope('key.created', 1, tenantId, keyId, { keyId, name: input.name, scopes: input.scopes, hash, prefix, createdBy: p.keyId });
    await this.writer.write('keys', [event], p.requestId);
    return { id: keyId, key, name: input.name, scopes: input.scopes, tenantId, prefix, createdAt: event.occurredAt, revokedAt: null };
  }

  async list(p: Principal): Promise<ApiKey[]> {
    return (await this.readModels.listKeys(p.tenantId)).map(view);
  }

  async revoke(p: Principal, keyId: string): Promise<ApiKey> {
    const doc = await this.readModels.getKey(p.tenantId, keyId);
    if (!doc) throw notFound('KEY_NOT_FOUND', 'API key not found', `no key ${keyId} in this tenant`);
    if (doc.revokedAt) return view(doc);
    const event: KeyRevoked = envelope('key.revoked', 1, p.tenantId, keyId, { keyId, revokedBy: p.keyId });
    await this.writer.write('keys', [event], p.requestId);
    return { ...view(doc), revokedAt: event.occurredAt };
  }
}
