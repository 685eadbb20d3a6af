import { Inject, Injectable } from '@nestjs/common';
import {
  ADMIN_KEY_ID,
  DEFAULT_TENANT,
  deriveSessionSecret,
  hashApiKey,
  isScope,
  isSessionToken,
  Principal,
  sameHash,
  SCOPES,
  SessionTokenError,
  verifySessionToken,
} from '@cds/auth';
import { AppConfig } from '@cds/config';
import { DomainError } from '@cds/errors';
import { KeyDoc, KeyReadModels, LogEnds, LogVersionedCache, READ_MODELS } from '@cds/read-models';
import { AdminKey } from './admin-key';

/**
 * Turns a bearer token into a Principal: the bootstrap key, a live stored key, or a
 * guardrail session token whose minting key is still live. A session principal holds
 * only the `guardrails` scope, whatever the minting key holds.
 */
@Injectable()
export class KeyResolver {
  private readonly adminHash: string;
  readonly sessionSecret: string;
  /** Keys by hash and by (tenant, id), kept while the keys topic does not move: a key
   * created or revoked on any replica retires them all on the next request. */
  private readonly byHash: LogVersionedCache<KeyDoc>;
  private readonly byId: LogVersionedCache<KeyDoc>;

  constructor(
    @Inject(READ_MODELS) private readonly readModels: KeyReadModels,
    admin: AdminKey,
    config: AppConfig,
    ends: LogEnds,
  ) {
    this.adminHash = hashApiKey(admin.key);
    this.sessionSecret = config.SESSION_TOKEN_SECRET ?? deriveSessionSecret(admin.key);
    this.byHash = new LogVersionedCache(ends, 'keys');
    this.byId = new LogVersionedCache(ends, 'keys');
  }

  /** null for an unknown or revoked key; a session token that fails throws a 401 naming why. */
  async resolve(token: string): Promise<Principal | null> {
    if (isSessionToken(token)) return this.resolveSession(token);
    const hash = hashApiKey(token);
    if (sameHash(hash, this.adminHash)) {
      return { keyId: ADMIN_KEY_ID, tenantId: DEFAULT_TENANT, scopes: SCOPES, bootstrap: true };
    }
    const doc = await this.byHash.get(hash, () => this.readModels.findKeyByHash(hash));
    if (!doc || doc.revokedAt) return null;
    return { keyId: doc.keyId, tenantId: doc.tenantId, scopes: doc.scopes.filter(isScope), bootstrap: false };
  }

  private async resolveSession(token: string): Promise<Principal> {
    let claims;
    try {
      claims = verifySessionToken(this.sessionSecret, token);
    } catch (err) {
      if (!(err instanceof SessionTokenError)) throw err;
      throw invalidSession(err.reason === 'expired' ? 'Session token expired' : 'Invalid session token', err.message);
    }
    if (claims.keyId !== ADMIN_KEY_ID) {
      const key = await this.byId.get(`${claims.tenantId}\u0000${claims.keyId}`, () => this.readModels.getKey(claims.tenantId, claims.keyId));
      if (!key || key.revokedAt || !key.scopes.includes('guardrails')) {
        throw invalidSession('Invalid session token', 'the API key that minted this token is revoked or no longer has the guardrails scope');
      }
    }
    return {
      keyId: claims.keyId,
      tenantId: claims.tenantId,
      scopes: ['guardrails'],
      bootstrap: false,
      session: { tokenId: claims.tokenId, projectId: claims.projectId, expiresAt: claims.expiresAt, policyWrite: claims.policyWrite },
    };
  }
}

function invalidSession(message: string, details: string): DomainError {
  return new DomainError('unauthorized', 'INVALID_SESSION_TOKEN', message, details);
}
