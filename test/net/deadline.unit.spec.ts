import { describe, expect, it } from 'vitest';
import { deadline } from '../../src/net/deadline.js';

const abortedAfter = (signal: AbortSignal, started: number) =>
  new Promise<number>((resolve) => signal.addEventListener('abort', () => resolve(performance.now() - started)));

describe('deadline', () => {
  it('aborts with a TimeoutError no earlier than the window and at most one slot after it', async () => {
    const started = performance.now();
    const signal = deadline(200);
    const elapsed = await abortedAfter(signal, started);
    expect(elapsed).toBeGreaterThanOrEqual(199);
    // the slot of a 200 ms window is 10 ms; a loaded machine's timer may fire late, not early
    expect(elapsed).toBeLessThan(400);
    expect((signal.reason as Error).name).toBe('TimeoutError');
  });

  it('shares one signal among calls whose deadlines fall in one slot, and not across windows', () => {
    const signals = Array.from({ length: 50 }, () => deadline(10_000));
    // 50 calls in a row take far less than the 50 ms slot: at most one slot boundary between them
    expect(new Set(signals).size).toBeLessThanOrEqual(2);
    expect(deadline(5_000)).not.toBe(deadline(10_000));
    expect(signals.every((s) => !s.aborted)).toBe(true);
  });
});
