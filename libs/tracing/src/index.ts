export { tracing, startTracing, tracingConfigured, NOOP_TRACING } from './tracing';
export type { Tracing, TraceSpan, RequestSpan, SpanAttributes } from './tracing';
