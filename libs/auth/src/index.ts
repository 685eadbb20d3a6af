export {
  SCOPES, Scope, DEFAULT_TENANT, ADMIN_KEY_ID, Principal,
  generateApiKey, hashApiKey, sameHash, bearerToken, isScope,
} from './api-key';
