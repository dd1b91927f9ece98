/**
 * The CLI's entry (`npm start`, `npm run cli`). With OTEL_EXPORTER_OTLP_ENDPOINT set, tracing
 * starts before anything else is loaded: its instrumentations patch pg and fastify as they
 * load. Without it, nothing of OpenTelemetry is loaded at all.
 */
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) await (await import('../tracing-sdk.js')).startTracing();
await import('./commands.js');
