export { serveProbes, stopOnSignal } from './probe-server';
export type { ProbeServer, ReadinessChecks } from './probe-server';
export { startProbedContext } from './probed-context';
export type { ProbeAddress } from './probed-context';
