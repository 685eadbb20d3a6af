/**
 * Tracing on: OpenTelemetry's SDK, spans batched and exported over OTLP/HTTP (JSON) to
 * OTEL_EXPORTER_OTLP_ENDPOINT (+ /v1/traces) or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, with
 * the exporter's and the batch processor's own OTEL_* variables. Parent and child spans
 * follow the async flow through an AsyncLocalStorage context. Required by startTracing only.
 */
import { context, propagation, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { RequestSpan, SpanAttributes, TraceSpan, Tracing } from './tracing';

const clean = (attributes: SpanAttributes) => {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(attributes)) if (v !== undefined) out[k] = v;
  return out;
};

export function openTelemetryTracing(resource: Record<string, string>): Tracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME || 'content-decision-service', ...resource }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  const tracer = provider.getTracer('cds');

  const run = async <T>(span: Span, fn: (span: TraceSpan) => Promise<T>): Promise<T> => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
      throw err;
    } finally {
      span.end();
    }
  };

  return {
    enabled: true,
    span: (name, attributes, fn) => tracer.startActiveSpan(name, { attributes: clean(attributes) }, (span) => run(span, fn)),
    active: () => trace.getActiveSpan() ?? trace.wrapSpanContext({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 }),
    traceparent() {
      const carrier: Record<string, string> = {};
      propagation.inject(context.active(), carrier);
      return carrier.traceparent;
    },
    continueFrom(traceparent, name, attributes, fn) {
      const parent = traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
      return tracer.startActiveSpan(name, { attributes: clean(attributes), kind: SpanKind.CONSUMER }, parent, (span) => run(span, fn));
    },
    startRequest(method, headers): RequestSpan {
      const parent = propagation.extract(ROOT_CONTEXT, headers);
      const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, parent);
      const active = trace.setSpan(parent, span);
      return {
        setAttribute: (key, value) => void span.setAttribute(key, value),
        run: (next) => context.with(active, next),
        bind: (emitter) => void context.bind(active, emitter),
        end(attributes) {
          const a = clean(attributes);
          span.setAttributes(a);
          if (typeof a['http.route'] === 'string') span.updateName(`${method} ${a['http.route']}`);
          if (typeof a['http.response.status_code'] === 'number' && a['http.response.status_code'] >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    shutdown: () => provider.shutdown(),
  };
}
