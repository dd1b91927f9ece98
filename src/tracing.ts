/**
 * What the rest of the service knows of tracing. The SDK itself (`tracing-sdk.ts`) is loaded
 * only when OTEL_EXPORTER_OTLP_ENDPOINT is set, and installs what is here; without it every
 * function here does nothing (no OpenTelemetry package loaded, no context looked up).
 */
export interface Tracer {
  /** The active span's W3C trace context (`traceparent`, `tracestate`), for an event's metadata. */
  context(): Record<string, string> | undefined;
  /**
   * Runs `work` in a span caused by the events whose trace contexts are given: the child of
   * the one trace when all are of one span, else a span of its own linked to each. No
   * context at all (events written untraced): no span.
   */
  inSpan<T>(
    name: string,
    causes: readonly unknown[],
    attributes: Record<string, string | number>,
    work: () => Promise<T>,
  ): Promise<T>;
  stop(): Promise<void>;
}

let tracer: Tracer | undefined;

export const installTracer = (t: Tracer): void => {
  tracer = t;
};

/** The trace context to keep in an event's metadata; nothing when tracing is off. */
export const traceContext = (): Record<string, string> | undefined => tracer?.context();

/** `work` in a span caused by these events' metadata (`Tracer.inSpan`); just `work` when off. */
export const inSpan = <T>(
  name: string,
  metadata: readonly Readonly<Record<string, unknown>>[],
  attributes: Record<string, string | number>,
  work: () => Promise<T>,
): Promise<T> =>
  tracer
    ? tracer.inSpan(
        name,
        metadata.map((m) => m['traceparent']),
        attributes,
        work,
      )
    : work();

/** Sends the spans not yet exported (a stopping process), within a bound. */
export const stopTracing = async (): Promise<void> => {
  if (!tracer) return;
  await Promise.race([
    tracer.stop().catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, 2_000).unref()),
  ]);
};
