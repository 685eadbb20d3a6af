export { serveProbes, stopOnSignal } from './probe-server';
export type { ProbeServer, ReadinessChecks } from './probe-server';
export { startProbedContext } from './probed-context';
export type { ProbedContextOptions } from './probed-context';
