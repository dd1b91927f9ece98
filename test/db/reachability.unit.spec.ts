import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DatabaseUnreachable, isDatabaseUnavailable } from '../../src/db/faults.js';
import { READ_TRY_MS, READ_WAIT_MS, Reachability } from '../../src/db/reachability.js';

/** A connection refused, as pg reports a server that is gone. */
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** Settles `promise` into a value the test can look at without awaiting it. */
const watch = <T>(promise: Promise<T>) => {
  const seen: { value?: T; error?: unknown; settled: boolean } = { settled: false };
  promise.then(
    (value) => Object.assign(seen, { value, settled: true }),
    (error: unknown) => Object.assign(seen, { error, settled: true }),
  );
  return seen;
};

const never = new Promise<never>(() => undefined);

describe('whether the primary answers, and how long a read waits for it', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is lost from a failure for want of the server until a statement succeeds; other errors say nothing', () => {
    const primary = new Reachability();
    primary.failed(Object.assign(new Error('duplicate key'), { code: '23505' }));
    expect(primary.lostSince).toBe(undefined);
    primary.failed(refused());
    expect(primary.lostSince).toBe(Date.now());
    vi.advanceTimersByTime(300);
    // the first failure dates the loss
    primary.failed(refused());
    expect(primary.lostSince).toBe(Date.now() - 300);
    primary.answered();
    expect(primary.lostSince).toBe(undefined);
  });

  it('gives a read up READ_WAIT_MS after the loss, or at its deadline if the loss is older', async () => {
    const primary = new Reachability();
    primary.failed(refused());
    const early = watch(primary.givenUp(Date.now() + 5_000, never));
    await vi.advanceTimersByTimeAsync(READ_WAIT_MS - 1);
    expect(early.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(early.value).toBe('lost');
    // lost for 1 s already: a new wait only gets its try (the primary may be back)
    const late = watch(primary.givenUp(Date.now() + 5_000, never));
    await vi.advanceTimersByTimeAsync(READ_TRY_MS - 1);
    expect(late.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(late.value).toBe('lost');
    expect(primary.gaveUp(Date.now() + 5_000)).toBe(true);
  });

  it('waits on while the primary answers, however long, and gives up at once if it is lost past the deadline', async () => {
    const primary = new Reachability();
    const read = watch(primary.givenUp(Date.now() + 200, never));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(read.settled).toBe(false);
    expect(primary.gaveUp(Date.now() - 1)).toBe(false);
    primary.failed(refused());
    await vi.advanceTimersByTimeAsync(0);
    expect(read.value).toBe('lost');
    expect(primary.gaveUp(Date.now() - 1)).toBe(true);
  });

  it('lets a wait that starts long after the loss find the primary back', async () => {
    const primary = new Reachability();
    primary.failed(refused());
    await vi.advanceTimersByTimeAsync(60_000);
    let connect!: (value: string) => void;
    const attempt = watch(
      primary.bounded(
        new Promise<string>((resolve) => (connect = resolve)),
        Date.now() + 5_000,
        'a connection to the primary',
      ),
    );
    await vi.advanceTimersByTimeAsync(READ_TRY_MS / 2);
    connect('connection');
    await vi.advanceTimersByTimeAsync(0);
    expect(attempt.value).toBe('connection');
  });

  it('waits on if the primary answers again within the wait', async () => {
    const primary = new Reachability();
    primary.failed(refused());
    const read = watch(primary.givenUp(Date.now() + 5_000, never));
    await vi.advanceTimersByTimeAsync(READ_WAIT_MS / 2);
    primary.answered();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(read.settled).toBe(false);
  });

  it('bounds a wait: the value if it comes first, a 503-worthy error if the loss does, and a late value handed back', async () => {
    const primary = new Reachability();
    expect(await primary.bounded(Promise.resolve('connection'), Date.now(), 'a connection')).toBe('connection');
    await expect(primary.bounded(Promise.reject(refused()), Date.now(), 'a connection')).rejects.toThrow(
      'ECONNREFUSED',
    );

    let arrive!: (value: string) => void;
    const handedBack: string[] = [];
    const pending = watch(
      primary.bounded(
        new Promise<string>((resolve) => (arrive = resolve)),
        Date.now() + 5_000,
        'a connection to the primary',
        (late) => handedBack.push(late),
      ),
    );
    primary.failed(refused());
    await vi.advanceTimersByTimeAsync(READ_WAIT_MS);
    expect(pending.error).toBeInstanceOf(DatabaseUnreachable);
    expect(isDatabaseUnavailable(pending.error)).toBe(true);
    expect(String(pending.error)).toContain('a connection to the primary');
    arrive('connection');
    await vi.advanceTimersByTimeAsync(0);
    expect(handedBack).toEqual(['connection']);
  });

  it('counts a write on a server still in recovery as the database unavailable, not as a fault', () => {
    const readOnly = Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' });
    expect(isDatabaseUnavailable(readOnly)).toBe(true);
  });
});
