export {
  SCOPES,
  Scope,
  DEFAULT_TENANT,
  ADMIN_KEY_ID,
  Principal,
  generateApiKey,
  hashApiKey,
  sameHash,
  bearerToken,
  isScope,
  principalIdentity,
} from './api-key';
export {
  SessionClaims,
  SessionTokenError,
  SessionTokenFailure,
  SESSION_TOKEN_PREFIX,
  isSessionToken,
  mintSessionToken,
  verifySessionToken,
  deriveSessionSecret,
} from './session-token';
export { EvidenceClaim, EvidenceQuery, EvidenceUrlFailure, signEvidence, evidencePath, verifyEvidence, deriveEvidenceKey } from './evidence-url';
