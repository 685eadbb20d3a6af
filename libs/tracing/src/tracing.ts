/**
 * Tracing as the rest of the service sees it: spans around the work that matters (a
 * request, policy resolution, each provider call, the durable append, the wait for the
 * projection, OCR, frame extraction) and the W3C trace context that events carry so a
 * worker's job continues the trace of the request that started it.
 *
 * Off (no OTEL_EXPORTER_OTLP_ENDPOINT): the no-op below, and nothing of OpenTelemetry is
 * ever required. On: ./otel-tracing.ts, required by startTracing only (OTLP/HTTP export,
 * an AsyncLocalStorage context: its promise hooks are paid only when tracing is on).
 */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

export interface TraceSpan {
  setAttribute(key: string, value: string | number | boolean): void;
}

/** An HTTP request's span, opened when the request arrives and ended with its answer. */
export interface RequestSpan extends TraceSpan {
  /** Runs `next` (the rest of the request's handling) with this span active. */
  run(next: () => void): void;
  /** Binds an emitter's later listeners (express's body parsing) to this span. */
  bind(emitter: object): void;
  end(attributes: SpanAttributes): void;
}

export interface Tracing {
  readonly enabled: boolean;
  /** `fn` in a child span of the active one, ended when `fn` settles (a throw is recorded). */
  span<T>(name: string, attributes: SpanAttributes, fn: (span: TraceSpan) => Promise<T>): Promise<T>;
  /** The active span (the request's, in a handler), for attributes known along the way. */
  active(): TraceSpan;
  /** The active span's context as a W3C `traceparent`, for an event to carry. */
  traceparent(): string | undefined;
  /** `fn` in a span continuing the trace `traceparent` names (a job of an event), or a new trace. */
  continueFrom<T>(traceparent: string | undefined, name: string, attributes: SpanAttributes, fn: (span: TraceSpan) => Promise<T>): Promise<T>;
  /** A server span for an HTTP request, its parent taken from the request's `traceparent` header. */
  startRequest(method: string, headers: Record<string, unknown>): RequestSpan;
  /** Exports what is pending and stops. */
  shutdown(): Promise<void>;
}

const NOOP_SPAN: RequestSpan = {
  setAttribute: () => undefined,
  run: (next) => next(),
  bind: () => undefined,
  end: () => undefined,
};

export const NOOP_TRACING: Tracing = {
  enabled: false,
  span: (_name, _attributes, fn) => fn(NOOP_SPAN),
  active: () => NOOP_SPAN,
  traceparent: () => undefined,
  continueFrom: (_parent, _name, _attributes, fn) => fn(NOOP_SPAN),
  startRequest: () => NOOP_SPAN,
  shutdown: async () => undefined,
};

let current: Tracing = NOOP_TRACING;

/** The process's tracing (the no-op until startTracing turned it on). */
export function tracing(): Tracing {
  return current;
}

/** Tracing is on when an OTLP endpoint is configured by the standard variables (and the SDK not disabled). */
export function tracingConfigured(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (env.OTEL_TRACES_EXPORTER !== undefined && env.OTEL_TRACES_EXPORTER.trim().toLowerCase() === 'none') return false;
  return !!(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/**
 * Turns tracing on for this process when configured (the standard OTEL_* variables:
 * OTEL_EXPORTER_OTLP_ENDPOINT or …_TRACES_ENDPOINT, …_HEADERS, OTEL_SERVICE_NAME,
 * OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER(_ARG), OTEL_BSP_*); else leaves the no-op.
 */
export function startTracing(env: NodeJS.ProcessEnv, resource: Record<string, string>): Tracing {
  if (!tracingConfigured(env)) return current;
  // Required here only: a process without an endpoint never loads OpenTelemetry.
  const { openTelemetryTracing } = require('./otel-tracing') as typeof import('./otel-tracing');
  current = openTelemetryTracing(resource);
  return current;
}
