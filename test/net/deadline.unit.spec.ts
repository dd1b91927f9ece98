import { describe, expect, it, vi } from 'vitest';
import { atDeadline } from '../../src/net/deadline.js';

const expiredAfter = (ms: number) =>
  new Promise<number>((resolve) => {
    const started = performance.now();
    atDeadline(ms, () => resolve(performance.now() - started));
  });

describe('deadline', () => {
  it('expires no earlier than the window and at most one slot after it', () => {
    // on the test's own clock: a loaded machine's timer fires late, and the bound is exact
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      let expired = false;
      atDeadline(200, () => (expired = true));
      vi.advanceTimersByTime(199);
      expect(expired).toBe(false);
      // the slot of a 200 ms window is 10 ms
      vi.advanceTimersByTime(11);
      expect(expired).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('expires every call of a slot, except those cancelled before', async () => {
    const expired: number[] = [];
    const cancels = Array.from({ length: 5 }, (_, i) => atDeadline(100, () => expired.push(i)));
    cancels[1]!();
    cancels[3]!();
    await expiredAfter(300);
    expect(expired.sort()).toEqual([0, 2, 4]);
  });
});
