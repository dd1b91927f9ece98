/**
 * Waits for the condition a test means (the event arrived, the row is there, the delivery
 * was made) instead of a fixed sleep: `check` runs again every `everyMs` while it answers
 * `false` or throws (an `expect` inside it), and what it answered then is answered. The
 * bound is generous on purpose: on a busy machine a condition that holds after 50 ms on an
 * idle one may take seconds; only a condition that never holds pays the whole bound.
 */
export const eventually = async <T>(
  what: string,
  check: () => T | Promise<T>,
  { timeoutMs = 20_000, everyMs = 10 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<Exclude<T, false>> => {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    let failure: unknown;
    try {
      const value = await check();
      if (value !== false) return value as Exclude<T, false>;
    } catch (error) {
      failure = error;
    }
    if (performance.now() > deadline) {
      const why = failure instanceof Error ? `: ${failure.message}` : '';
      throw new Error(`not reached within ${timeoutMs} ms: ${what}${why}`, { cause: failure });
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
};
