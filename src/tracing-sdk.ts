import { register } from 'node:module';
import { onTracingStop } from './tracing.js';

/**
 * OpenTelemetry's Node SDK, started before the service's modules load (src/cli/main.ts) when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set. The exporter is configured by the standard variables
 * (OTEL_EXPORTER_OTLP_PROTOCOL: http/protobuf by default, http/json, grpc;
 * OTEL_SERVICE_NAME; OTEL_TRACES_SAMPLER…). Instrumented: every request (fastify's own
 * instrumentation, registered on each instance as it is created), every statement (pg) and
 * every outbound call (undici: supplier calls and webhook deliveries).
 */
export const startTracing = async (): Promise<void> => {
  // the service is ES modules: pg and fastify are patched as they are imported
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const { PgInstrumentation } = await import('@opentelemetry/instrumentation-pg');
  const { UndiciInstrumentation } = await import('@opentelemetry/instrumentation-undici');
  const { FastifyOtelInstrumentation } = await import('@fastify/otel');
  process.env.OTEL_SERVICE_NAME ??= 'supplier-marketplace';
  // traces only: metrics are Prometheus's (/metrics), logs pino's lines
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  const sdk = new NodeSDK({
    instrumentations: [
      new FastifyOtelInstrumentation({ registerOnInitialization: true }),
      new PgInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
  });
  sdk.start();
  onTracingStop(() => sdk.shutdown());
};
