/**
 * Deadlines for outbound calls, one timer per short slot. A timer and an abort signal per
 * call (`AbortSignal.timeout`, then a signal per slot with a listener per call) were about
 * a seventh of a webhook attempt's CPU; calls started side by side (a batch of deliveries)
 * now share one timer, and joining or leaving a slot is a set's add and delete. A call
 * expires at most one slot (a twentieth of its window, at most 50 ms) after its own
 * deadline, never before it.
 */
const slots = new Map<number, Set<() => void>>();

/** The error a call that ran out of time fails with (callers tell it by its name). */
export const timeoutError = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError');

/** A slot's calls, expired together by one timer at `end`. */
const startSlot = (key: number, end: number): Set<() => void> => {
  const calls = new Set<() => void>();
  slots.set(key, calls);
  const timer = setTimeout(
    () => {
      slots.delete(key);
      for (const call of calls) call();
    },
    Math.max(0, end - performance.now()),
  );
  timer.unref();
  return calls;
};

/** Calls `expired` once `ms` have passed, unless the answered cancel runs first. */
export const atDeadline = (ms: number, expired: () => void): (() => void) => {
  const slot = Math.min(50, Math.max(1, Math.floor(ms / 20)));
  const end = Math.ceil((performance.now() + ms) / slot) * slot;
  const key = end * 1e3 + slot; // distinct per slot size, should windows of several sizes meet
  const calls = slots.get(key) ?? startSlot(key, end);
  calls.add(expired);
  return () => calls.delete(expired);
};
