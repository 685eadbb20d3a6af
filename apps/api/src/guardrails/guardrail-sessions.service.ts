import { Injectable } from '@nestjs/common';
import { mintSessionToken, Principal } from '@cds/auth';
import { DomainError, invalid } from '@cds/errors';
import { KeyResolver } from '../keys/key-resolver.service';
import { projectOf } from './project-access';

export const SESSION_TTL = { default: 900, min: 60, max: 86_400 } as const;

/**
 * A key with the `guardrails` scope mints a session token for one project, to hand to
 * an agent instead of the key. The token carries only the guardrails scope, only for
 * that project, until it expires or its key is revoked. Tokens cannot mint tokens.
 */
@Injectable()
export class GuardrailSessions {
  constructor(private readonly keys: KeyResolver) {}

  mint(p: Principal, body: Record<string, unknown>) {
    if (p.session) {
      throw new DomainError('forbidden', 'SESSION_CANNOT_MINT', 'A session token cannot mint session tokens', 'use an API key with the guardrails scope');
    }
    const projectId = projectOf(p, body.projectId, true);
    const ttl = body.ttlSeconds ?? SESSION_TTL.default;
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < SESSION_TTL.min || ttl > SESSION_TTL.max) {
      throw invalid('INVALID_TTL', `ttlSeconds must be an integer from ${SESSION_TTL.min} to ${SESSION_TTL.max}`, `got ${JSON.stringify(ttl)}`);
    }
    const policyWrite = body.policyWrite ?? false;
    if (typeof policyWrite !== 'boolean') throw invalid('INVALID_POLICY_WRITE', 'policyWrite must be a boolean', `got ${JSON.stringify(policyWrite)}`);
    const { token, claims } = mintSessionToken(this.keys.sessionSecret, { tenantId: p.tenantId, projectId, keyId: p.keyId, policyWrite }, ttl);
    return { token, tokenId: claims.tokenId, projectId, policyWrite, expiresAt: new Date(claims.expiresAt * 1000).toISOString() };
  }
}
