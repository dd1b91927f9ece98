/**
 * What the rest of the service knows of tracing: how to flush it before the process exits.
 * The SDK itself (`tracing-sdk.ts`) is loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set;
 * without it this stays a no-op and the OpenTelemetry API answers no-ops too.
 */
let stop: (() => Promise<void>) | undefined;

export const onTracingStop = (flush: () => Promise<void>): void => {
  stop = flush;
};

/** Sends the spans not yet exported (a stopping process), within a bound. */
export const stopTracing = async (): Promise<void> => {
  if (!stop) return;
  await Promise.race([stop().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
};
