export {
  startService,
  runRebuild,
  dropReadModels,
  deploymentEnv,
  e2eMode,
  tempDataDir,
  RunningService,
  StartOptions,
  API_MAIN,
  PROJECTOR_MAIN,
} from './service-process';
export { Topology, TopologyOptions } from './topology';
export { ManagedProcess } from './managed-process';
export { RoundRobinProxy } from './round-robin-proxy';
export { assertInfraReachable, deleteRecordedDeployments, infraEnv, prefixOf, testRun } from './distributed-infra';
export { ApiClient, ApiResponse, expectErrorBody } from './http-client';
export { domainFailure } from './domain-failure';
export { PrivateBroker } from './private-broker';
export { freePort } from './free-port';
