export { serveProbes, stopOnSignal } from './probe-server';
export type { ProbeServer, ReadinessChecks } from './probe-server';
