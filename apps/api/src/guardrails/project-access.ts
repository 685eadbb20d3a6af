import { Principal } from '@cds/auth';
import { DomainError, invalid } from '@cds/errors';

/** Project ids: a UUID or any id of letters, digits and `._:-` (at most 128). */
export const PROJECT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * The project a guardrail request acts on. A session token is bound to one project:
 * it may omit `projectId` (its own is used) but never name another. An API key names
 * the project explicitly; projects live inside the key's tenant, so the same id in
 * two tenants is two unrelated projects.
 */
export function projectOf(p: Principal, requested: unknown, required: true): string;
export function projectOf(p: Principal, requested: unknown, required: boolean): string | null;
export function projectOf(p: Principal, requested: unknown, required: boolean): string | null {
  if (requested === undefined || requested === null || requested === '') {
    if (p.session) return p.session.projectId;
    if (required) throw invalid('PROJECT_ID_REQUIRED', 'projectId is required', 'name the project with projectId');
    return null;
  }
  if (typeof requested !== 'string' || !PROJECT_ID_PATTERN.test(requested)) {
    throw invalid(
      'INVALID_PROJECT_ID',
      'projectId is invalid',
      'projectId must be 1-128 letters, digits, ".", "_", ":" or "-", starting with a letter or digit',
    );
  }
  if (p.session && p.session.projectId !== requested) {
    throw new DomainError(
      'forbidden',
      'PROJECT_FORBIDDEN',
      'This session token is not valid for that project',
      `the token is bound to project ${p.session.projectId}`,
    );
  }
  return requested;
}

/** A session token changes its project's policy (PUT, rollback, an inline policy on a
 * decision) only when minted with `policyWrite: true`; API keys always may. */
export function assertMayChangePolicy(p: Principal, what: string): void {
  if (p.session && !p.session.policyWrite) {
    throw new DomainError(
      'forbidden',
      'SESSION_POLICY_FORBIDDEN',
      'This session token may not change the guardrail policy',
      `${what} needs an API key, or a session token minted with policyWrite: true`,
    );
  }
}
