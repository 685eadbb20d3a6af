export { REQUEST_ID_HEADER, acceptRequestId, currentRequestId, withRequestId } from './request-context';
export { JsonLogger } from './json-logger';
export type { LogLevelName } from './json-logger';
export { configureLogging } from './configure-logging';
