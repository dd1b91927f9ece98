import { register } from 'node:module';
import { installTracer } from './tracing.js';

/**
 * OpenTelemetry's Node SDK, started before the service's modules load (src/cli/main.ts) when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set. The exporter is configured by the standard variables
 * (OTEL_EXPORTER_OTLP_PROTOCOL: http/protobuf by default, http/json, grpc;
 * OTEL_SERVICE_NAME; OTEL_TRACES_SAMPLER…). Instrumented: every request (fastify's own
 * instrumentation, registered on each instance as it is created), every statement (pg) and
 * every outbound call (undici: supplier calls and webhook deliveries) made within a span;
 * and the work events cause later (`inSpan`), joined to the trace that wrote them.
 */
export const startTracing = async (): Promise<void> => {
  // the service is ES modules: pg and fastify are patched as they are imported
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const { PgInstrumentation } = await import('@opentelemetry/instrumentation-pg');
  const { UndiciInstrumentation } = await import('@opentelemetry/instrumentation-undici');
  const { FastifyOtelInstrumentation } = await import('@fastify/otel');
  const api = await import('@opentelemetry/api');
  process.env.OTEL_SERVICE_NAME ??= 'supplier-marketplace';
  // traces only: metrics are Prometheus's (/metrics), logs pino's lines
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  const sdk = new NodeSDK({
    // what an operator reads a trace for, and no more: each request and its handler, each
    // statement, each outbound call. Not a span per fastify hook (our hooks are the token's
    // look-up and the limits, nine spans a request) nor per pool check-out (one beside each
    // statement): together they were most of a traced order's spans and of its cost
    instrumentations: [
      new FastifyOtelInstrumentation({ registerOnInitialization: true, instrumentHooks: false }),
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
  });
  sdk.start();
  const tracer = api.trace.getTracer('supplier-marketplace');
  installTracer({
    context: () => {
      const carrier: Record<string, string> = {};
      api.propagation.inject(api.context.active(), carrier);
      return carrier.traceparent ? carrier : undefined;
    },
    inSpan: (name, causes, attributes, work) => {
      const parents = [...new Set(causes.filter((c): c is string => typeof c === 'string'))]
        .map((traceparent) => api.trace.getSpanContext(api.propagation.extract(api.ROOT_CONTEXT, { traceparent })))
        .filter((c) => c !== undefined);
      if (parents.length === 0) return work();
      // of one trace (one request's events): a step of it; of several (a batch): a span of
      // its own, linked to each
      const one = parents.every((c) => c.traceId === parents[0]!.traceId);
      const [parent, links] = one
        ? [api.trace.setSpanContext(api.ROOT_CONTEXT, parents[0]!), []]
        : [api.ROOT_CONTEXT, parents.map((context) => ({ context }))];
      return tracer.startActiveSpan(name, { attributes, links }, parent, async (span) => {
        try {
          return await work();
        } catch (error) {
          span.recordException(error as Error);
          span.setStatus({ code: api.SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      });
    },
    stop: () => sdk.shutdown(),
  });
};
