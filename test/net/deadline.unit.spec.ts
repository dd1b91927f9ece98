import { describe, expect, it } from 'vitest';
import { atDeadline } from '../../src/net/deadline.js';

const expiredAfter = (ms: number) =>
  new Promise<number>((resolve) => {
    const started = performance.now();
    atDeadline(ms, () => resolve(performance.now() - started));
  });

describe('deadline', () => {
  it('expires no earlier than the window and at most one slot after it', async () => {
    const elapsed = await expiredAfter(200);
    expect(elapsed).toBeGreaterThanOrEqual(199);
    // the slot of a 200 ms window is 10 ms; a loaded machine's timer may fire late, not early
    expect(elapsed).toBeLessThan(400);
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
