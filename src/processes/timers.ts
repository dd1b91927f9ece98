import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Database } from '../db/schema.js';
import { faultPoint } from '../faults.js';
import { newId } from '../ids.js';
import { BatchRuns } from './batch-runs.js';
import { inSpan } from '../tracing.js';
import { insertTimers, traced } from './schedule.js';
import type { TimerPayloads } from './timer-kinds.js';

export interface DueTimer<P = unknown> {
  kind: string;
  key: string;
  dueAt: Date;
  payload: P;
  attempt: number;
}

/** What a timer handler may answer: nothing (done) or a later time to run again. */
export type TimerOutcome = void | { runAgainAt: Date };

/** A handler of one kind, given that kind's payload (timer-kinds.ts). */
export type TimerHandler<P = unknown> = (timer: DueTimer<P>) => Promise<TimerOutcome>;

/**
 * Due work kept in a table of its own (webhook deliveries), polled with the timers: the
 * background loop and `runDue` (so a drain) run it too. `runDue` answers how many it
 * claimed; without `wait` it returns once they are claimed and calls `wake` when done.
 */
export interface DueSource {
  /** Timer kinds it claims itself (in batches): the timers' own claim leaves them to it. */
  readonly kinds?: readonly string[];
  runDue(options: { wait: boolean }): Promise<number>;
  /** Resolves once the work it started has finished (at stop). */
  settle(): Promise<void>;
  /** Resolves once the work it started in the background has ended; answers whether there was any. */
  background(): Promise<boolean>;
}

/**
 * A claim holds for 30 s of clock time and is renewed every 10 s (real time) while its
 * handler runs: a long run keeps its timer, and the run of an instance that died is taken
 * over within 30 s instead of minutes.
 */
export const LEASE_MS = 30_000;
const HEARTBEAT_MS = 10_000;
const MAX_BACKOFF_MS = 60 * 60_000;
/** The background loop's pause after a failed poll (the database unreachable) grows to this. */
const MAX_POLL_BACKOFF_MS = 30_000;
/** Timers running at once in the background loop of one instance. */
const MAX_IN_FLIGHT = 64;

/**
 * Durable timers: one row per (kind, key) in Postgres. A due timer is claimed with
 * `FOR UPDATE SKIP LOCKED` and a lease in a short transaction, run outside it (handlers
 * call the outside world and must not hold a transaction open), then deleted. A restart
 * loses none; two instances never run the same one while its lease holds. Due times are
 * read from the injectable clock, so tests move time and drain due work at will.
 */
export class Timers<M extends object = TimerPayloads> {
  private readonly handlers = new Map<string, TimerHandler>();
  private readonly sources: DueSource[] = [];
  private readonly instance = newId();
  private loop: Promise<void> | undefined;
  private stopping = false;
  private kick: (() => void) | undefined;
  private readonly running = new BatchRuns(() => this.kick?.());
  private inFlight = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    readonly log: Logger,
    private readonly options: { heartbeatMs?: number } = {},
  ) {}

  on<K extends keyof M & string>(kind: K, handler: TimerHandler<M[K]>): void {
    // stored by kind: the row's kind picks the handler, whose payload is that kind's
    this.handlers.set(kind, handler as TimerHandler);
  }

  /**
   * Schedules (kind, key) at `dueAt`. Keyed: scheduling the same key again is harmless
   * unless `replace` moves it. Pass a transaction to schedule atomically with other writes.
   */
  async schedule<K extends keyof M & string>(
    kind: K,
    key: string,
    dueAt: Date,
    payload: M[K],
    options: { db?: Kysely<Database>; replace?: boolean } = {},
  ): Promise<void> {
    const payloadText = JSON.stringify(payload);
    const rows = traced([{ kind, key, due_at: dueAt, payload: payloadText, created_at: this.clock.now() }]);
    const insert = (options.db ?? this.db).insertInto('timers').values(rows);
    await (
      options.replace
        ? insert.onConflict((oc) =>
            oc
              .columns(['kind', 'key'])
              .doUpdateSet({ due_at: dueAt, payload: payloadText, claimed_by: null, claimed_until: null, attempts: 0 }),
          )
        : insert.onConflict((oc) => oc.columns(['kind', 'key']).doNothing())
    ).execute();
    this.kick?.();
  }

  /** Schedules several timers of one kind in one statement (keyed as `schedule`: an existing one stays). */
  async scheduleMany<K extends keyof M & string>(
    kind: K,
    timers: { key: string; dueAt: Date; payload: M[K] }[],
  ): Promise<void> {
    if (timers.length === 0) return;
    const created = this.clock.now();
    await insertTimers(
      this.db,
      timers.map((t) => ({
        kind,
        key: t.key,
        due_at: t.dueAt,
        payload: JSON.stringify(t.payload),
        created_at: created,
      })),
    );
    this.kick?.();
  }

  /** Polls `source` with the timers from now on. */
  attach(source: DueSource): void {
    this.sources.push(source);
  }

  /** Polls at once (timers were written outside `schedule`, e.g. by a process manager's batch). */
  wake(): void {
    this.kick?.();
  }

  async cancel(kind: string, key: string, db: Kysely<Database> = this.db): Promise<void> {
    await db.deleteFrom('timers').where('kind', '=', kind).where('key', '=', key).execute();
  }

  /**
   * Claims and runs the timers due now; returns how many it claimed. With `wait: false`
   * (the background loop) it does not wait for them: a slow one (a webhook endpoint that
   * takes its full 10 s) never holds back the next claims.
   */
  async runDue(limit = 100, options: { wait?: boolean } = {}): Promise<number> {
    let fromSources = 0;
    for (const source of this.sources) fromSources += await source.runDue({ wait: options.wait ?? true });
    return fromSources + (await this.runDueTimers(limit, options));
  }

  private async runDueTimers(limit: number, options: { wait?: boolean }): Promise<number> {
    if (limit <= 0) return 0;
    const now = this.clock.now();
    const claimToken = `${this.instance}:${newId()}`;
    const claimed = await sql<{
      kind: string;
      key: string;
      due_at: Date;
      payload: unknown;
      attempts: number;
      traceparent: string | null;
    }>`
      update timers t set claimed_by = ${claimToken}, claimed_until = ${new Date(now.getTime() + LEASE_MS)}, attempts = t.attempts + 1
      from (
        select kind, key from timers
        where due_at <= ${now} and (claimed_until is null or claimed_until < ${now})
          and kind <> all(${this.sources.flatMap((s) => s.kinds ?? [])}::text[])
        order by due_at limit ${limit}
        for update skip locked
      ) due
      where t.kind = due.kind and t.key = due.key
      returning t.kind, t.key, t.due_at, t.payload, t.attempts, t.traceparent`.execute(this.db);

    // run in due order; different timers are independent, so run them side by side
    const runs = Promise.all(
      claimed.rows
        .sort((a, b) => a.due_at.getTime() - b.due_at.getTime())
        .map((row) =>
          this.runOne(
            { kind: row.kind, key: row.key, dueAt: row.due_at, payload: row.payload, attempt: row.attempts },
            claimToken,
            row.traceparent,
          ),
        ),
    );
    await this.running.start(runs, options.wait ?? true);
    return claimed.rows.length;
  }

  /** Never throws: a failure to record the outcome (the database gone) is logged; the lease then runs out and the timer runs again. */
  private async runOne(timer: DueTimer, claimToken: string, traceparent: string | null): Promise<void> {
    this.inFlight++;
    const heartbeat = setInterval(() => void this.renew(timer, claimToken), this.options.heartbeatMs ?? HEARTBEAT_MS);
    try {
      // a step of the trace that scheduled it (tracing on and a context kept); else just the run
      await inSpan(
        'timer.run',
        traceparent ? [{ traceparent }] : [],
        { 'svc.timer_kind': timer.kind, 'svc.timer_attempt': timer.attempt },
        () => this.runClaimed(timer, claimToken),
      );
    } catch (error) {
      this.log.error(
        { err: error, timer: { kind: timer.kind, key: timer.key } },
        'timer outcome not recorded; its lease will run out and it runs again',
      );
    } finally {
      clearInterval(heartbeat);
      this.inFlight--;
    }
  }

  /** Extends the lease of a claim still running here. */
  private async renew(timer: DueTimer, claimToken: string): Promise<void> {
    try {
      await this.db
        .updateTable('timers')
        .set({ claimed_until: new Date(this.clock.now().getTime() + LEASE_MS) })
        .where('kind', '=', timer.kind)
        .where('key', '=', timer.key)
        .where('claimed_by', '=', claimToken)
        .execute();
    } catch (error) {
      this.log.warn({ err: error, timer: { kind: timer.kind, key: timer.key } }, 'timer lease not renewed');
    }
  }

  private async runClaimed(timer: DueTimer, claimToken: string): Promise<void> {
    const mine = (eb: ExpressionBuilder<Database, 'timers'>) =>
      eb.and([eb('kind', '=', timer.kind), eb('key', '=', timer.key), eb('claimed_by', '=', claimToken)]);
    const handler = this.handlers.get(timer.kind);
    try {
      if (!handler) throw new Error(`no handler for timer kind ${timer.kind}`);
      const outcome = await handler(timer);
      faultPoint('timer-after-run');
      if (outcome && 'runAgainAt' in outcome) {
        await this.db
          .updateTable('timers')
          .set({ due_at: outcome.runAgainAt, claimed_by: null, claimed_until: null, attempts: 0 })
          .where(mine)
          .execute();
      } else {
        // a handler that rescheduled its own key cleared the claim: that new row stays
        await this.db.deleteFrom('timers').where(mine).execute();
      }
    } catch (error) {
      const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(timer.attempt, 12));
      this.log.warn(
        { err: error, timer: { kind: timer.kind, key: timer.key, attempt: timer.attempt } },
        'timer failed; retrying later',
      );
      await this.db
        .updateTable('timers')
        .set({
          due_at: new Date(this.clock.now().getTime() + backoff),
          claimed_by: null,
          claimed_until: null,
          last_error: String(error instanceof Error ? error.message : error).slice(0, 1000),
        })
        .where(mine)
        .execute();
    }
  }

  /** Polls for due timers until stopped; a local schedule() wakes it at once. */
  start(intervalMs = 250): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = (async () => {
      let failures = 0;
      while (!this.stopping) {
        let ran = 0;
        try {
          ran = await this.runDue(MAX_IN_FLIGHT - this.inFlight, { wait: false });
          failures = 0;
        } catch (error) {
          // the database unreachable (a restart, a failover, a dropped connection): keep the
          // process up and try again, less often while it lasts
          failures++;
          if (!this.stopping) this.log.error({ err: error, failures }, 'timer poll failed; retrying');
        }
        const pause =
          failures === 0 ? intervalMs : Math.min(MAX_POLL_BACKOFF_MS, intervalMs * 2 ** Math.min(failures, 10));
        if ((ran === 0 || failures > 0) && !this.stopping)
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, pause);
            this.kick = () => {
              clearTimeout(t);
              resolve();
            };
          });
        this.kick = undefined;
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.kick?.();
    await this.loop;
    this.loop = undefined;
    await Promise.all([this.running.settle(), ...this.sources.map((s) => s.settle())]);
  }

  /**
   * Resolves once the runs the background loop started (here and in the sources) have
   * ended; answers whether there were any. A drain that ran nothing itself is not done
   * while the loop still runs what it claimed first.
   */
  async background(): Promise<boolean> {
    const busy = await Promise.all([this.running.settle(), ...this.sources.map((s) => s.background())]);
    return busy.some(Boolean);
  }
}
