/**
 * The one source of "now". Domain code never reads it: command handlers and processes
 * read it once and pass the instant into the decision, so tests can move time at will.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

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
}

/**
 * An operator clock in a running sandbox: real time plus whatever offset the operator added,
 * so timers keep firing on their own between advances.
 */
export class OffsetClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(seconds: number): Date {
    this.offsetMs += Math.round(seconds * 1000);
    return this.now();
  }
}

export type AdvanceableClock = Clock & { advance(seconds: number): Date };
