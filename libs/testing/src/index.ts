export { startService, runRebuild, freePort, tempDataDir, RunningService, StartOptions, API_MAIN, PROJECTOR_MAIN } from './service-process';
export { ApiClient, ApiResponse, expectErrorBody } from './http-client';
export { domainFailure } from './domain-failure';
