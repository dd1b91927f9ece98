/**
 * The one source of "now". Domain code never reads it: command handlers and processes
 * read it once and pass the instant into the decision, so tests can move time at will.
 */
export interface Clock {
  now(): Date;
  /** Waits `ms` of this clock's time (a spec pause such as "retry after 2 s"). */
  sleep(ms: number): Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const systemClock: Clock = { now: () => new Date(), sleep: realSleep };

/** A clock that only moves when told to; `SVC_TEST_CLOCK=1` and the test harness use it. */
export class TestClock implements Clock {
  private current: number;

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(seconds: number): Date {
    this.current += Math.round(seconds * 1000);
    return this.now();
  }

  /** Time moves by itself here: a pause costs the test nothing. */
  async sleep(ms: number): Promise<void> {
    this.current += ms;
  }
}

/**
 * An operator clock in a running sandbox: real time plus whatever offset the operator added,
 * so timers keep firing on their own between advances.
 */
export class OffsetClock implements Clock {
  constructor(private offsetMs = 0) {}

  /** How far ahead of real time this clock runs (what survives a restart). */
  get offset(): number {
    return this.offsetMs;
  }

  /** Takes the offset stored for the service (another instance may have moved it). */
  setOffset(offsetMs: number): void {
    this.offsetMs = offsetMs;
  }

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(seconds: number): Date {
    this.offsetMs += Math.round(seconds * 1000);
    return this.now();
  }

  sleep(ms: number): Promise<void> {
    return realSleep(ms);
  }
}

export type AdvanceableClock = Clock & { advance(seconds: number): Date };
