import { createHash } from 'node:crypto';

/** Namespace of the name-based decision ids (a fixed random UUID). */
const NAMESPACE = Buffer.from('5f0c7a1e9b3d4c2aa8e6d14b7c90f3e2', 'hex');

/**
 * The decision id of a check carrying a requestId (or Idempotency-Key): a UUID v5
 * (RFC 9562, SHA-1, name-based) of tenant and requestId. Concurrent retries served by
 * different api replicas cannot see each other's in-flight check, but they name the
 * same decision, and the read models keep the first event of a decision id, so every
 * retry answers that one decision.
 */
export function idempotentDecisionId(tenantId: string, requestId: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(`${tenantId}\u0000${requestId}`, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50; // version 5
  hash[8] = (hash[8] & 0x3f) | 0x80; // RFC 4122 variant
  const h = hash.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
