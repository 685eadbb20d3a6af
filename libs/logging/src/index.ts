export { REQUEST_ID_HEADER, acceptRequestId } from './request-context';
export { JsonLogger } from './json-logger';
export type { LogLevelName } from './json-logger';
export { configureLogging } from './configure-logging';
export { AccessLog } from './access-log';
export type { AccessFields, AccessLogOptions } from './access-log';
