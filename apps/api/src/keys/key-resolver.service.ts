import { Inject, Injectable } from '@nestjs/common';
import { ADMIN_KEY_ID, DEFAULT_TENANT, hashApiKey, isScope, Principal, sameHash, SCOPES } from '@cds/auth';
import { READ_MODELS, ReadModels } from '@cds/read-models';
import { AdminKey } from './admin-key';

/** Turns a bearer token into a Principal: the bootstrap key, or a live stored key. */
@Injectable()
export class KeyResolver {
  private readonly adminHash: string;

  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModels, admin: AdminKey) {
    this.adminHash = hashApiKey(admin.key);
  }

  async resolve(token: string): Promise<Principal | null> {
    const hash = hashApiKey(token);
    if (sameHash(hash, this.adminHash)) {
      return { keyId: ADMIN_KEY_ID, tenantId: DEFAULT_TENANT, scopes: SCOPES, bootstrap: true };
    }
    const doc = await this.readModels.findKeyByHash(hash);
    if (!doc || doc.revokedAt) return null;
    return { keyId: doc.keyId, tenantId: doc.tenantId, scopes: doc.scopes.filter(isScope), bootstrap: false };
  }
}
