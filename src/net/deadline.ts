import { setMaxListeners } from 'node:events';

/**
 * A signal that aborts a call once `ms` have passed, shared by every call whose deadline
 * falls in the same short slot. `AbortSignal.timeout` makes a timer and a tracked signal
 * per call, about a seventh of a webhook attempt's CPU; calls started side by side (a batch
 * of deliveries) now share one. A call is aborted at most one slot (a twentieth of its
 * window, at most 50 ms) after its own deadline, never before it.
 */
const slots = new Map<number, AbortSignal>();

export const deadline = (ms: number): AbortSignal => {
  const slot = Math.min(50, Math.max(1, Math.floor(ms / 20)));
  const end = Math.ceil((performance.now() + ms) / slot) * slot;
  const key = end * 1e3 + slot; // distinct per slot size, should windows of several sizes meet
  let signal = slots.get(key);
  if (!signal) {
    const controller = new AbortController();
    signal = controller.signal;
    // every call of the slot listens on it: no leak warning for a busy slot
    setMaxListeners(0, signal);
    slots.set(key, signal);
    const timer = setTimeout(
      () => {
        slots.delete(key);
        controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
      },
      Math.max(0, end - performance.now()),
    );
    timer.unref();
  }
  return signal;
};
